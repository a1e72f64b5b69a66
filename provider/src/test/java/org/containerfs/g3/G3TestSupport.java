package org.containerfs.g3;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.spi.FileSystemProvider;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;

/** Test helpers: the installed g3 provider, corpus files, and a frame builder written for the tests. */
final class G3TestSupport {
    private G3TestSupport() {}

    static FileSystemProvider provider() {
        for (FileSystemProvider p : FileSystemProvider.installedProviders()) {
            if (p.getScheme().equals("g3")) {
                return p;
            }
        }
        throw new AssertionError("no installed FileSystemProvider for scheme g3 (META-INF/services)");
    }

    static FileSystem open(Path file, Map<String, ?> env) throws IOException {
        return provider().newFileSystem(file, env);
    }

    static FileSystem open(Path file) throws IOException {
        return open(file, Map.of());
    }

    static Path corpus(String name) {
        try {
            return Paths.get(G3TestSupport.class.getResource("/corpus/g3/" + name).toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    static byte[] corpusBytes(String name) throws IOException {
        return Files.readAllBytes(corpus(name));
    }

    static String sha256(byte[] b) throws Exception {
        return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(b));
    }

    /** The CRC by its definition (bit at a time, reflected 0x82F63B78, init 0, no final XOR). */
    static int slowCrc(byte[]... parts) {
        int c = 0;
        for (byte[] p : parts) {
            for (byte b : p) {
                c ^= b & 0xFF;
                for (int k = 0; k < 8; k++) {
                    c = (c & 1) != 0 ? (c >>> 1) ^ 0x82F63B78 : c >>> 1;
                }
            }
        }
        return c;
    }

    /** A frame in either byte order, built from g3.md section 2 independently of the writer under test. */
    static byte[] frame(ByteOrder order, int type, List<byte[]> keys, List<byte[]> blobs) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(order == ByteOrder.LITTLE_ENDIAN ? 1 : 0);
        out.writeBytes(ByteBuffer.allocate(12).order(order).putInt(1).putInt(keys.size()).putInt(type).array());
        int crc = 0;
        for (int i = 0; i < keys.size(); i++) {
            out.writeBytes(ByteBuffer.allocate(8).order(order).putLong(keys.get(i).length).array());
            out.writeBytes(keys.get(i));
            out.writeBytes(ByteBuffer.allocate(8).order(order).putLong(blobs.get(i).length).array());
            out.writeBytes(blobs.get(i));
            crc = slowCrcContinue(crc, keys.get(i));
            crc = slowCrcContinue(crc, blobs.get(i));
        }
        out.writeBytes(ByteBuffer.allocate(4).order(order).putInt(crc).array());
        return out.toByteArray();
    }

    private static int slowCrcContinue(int c, byte[] p) {
        for (byte b : p) {
            c ^= b & 0xFF;
            for (int k = 0; k < 8; k++) {
                c = (c & 1) != 0 ? (c >>> 1) ^ 0x82F63B78 : c >>> 1;
            }
        }
        return c;
    }

    /** A G3Double blob in either byte order (g3.md section 3). */
    static byte[] doubleBlob(ByteOrder order, double v) {
        byte[] name = "G3Double".getBytes();
        ByteBuffer b = ByteBuffer.allocate(1 + 4 + 8 + name.length + 12 + 8).order(order);
        b.put((byte) (order == ByteOrder.LITTLE_ENDIAN ? 1 : 0)).putInt(0x80000001).putLong(name.length).put(name)
                .putInt(0x80000001).putInt(1).putInt(1).putDouble(v);
        return b.array();
    }

    static String hex(int v) {
        return String.format("0x%08x", v);
    }
}
