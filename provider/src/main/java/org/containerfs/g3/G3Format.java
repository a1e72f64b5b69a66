package org.containerfs.g3;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.List;
import java.util.zip.GZIPInputStream;
import org.containerfs.spi.Container;
import org.containerfs.spi.ContainerChannel;
import org.containerfs.spi.ContainerFormat;
import org.containerfs.spi.ContainerSource;

/**
 * G3 (spt3g_software) frame streams, plain or gzip-compressed. No magic number: a file is
 * recognised by its first frame header (endian flag 0 or 1, then G3Frame version 1 in that order).
 */
public final class G3Format implements ContainerFormat {

    @Override
    public String name() {
        return "g3";
    }

    @Override
    public List<String> fileExtensions() {
        return List.of("g3", "g3.gz");
    }

    @Override
    public boolean probe(ByteBuffer head, String fileName) {
        try {
            ByteBuffer b = head.slice();
            if (b.remaining() >= 2 && (b.get(0) & 0xFF) == 0x1F && (b.get(1) & 0xFF) == 0x8B) {
                byte[] bytes = new byte[b.remaining()];
                b.get(bytes);
                byte[] start = new byte[G3Index.HEADER];
                int n = 0;
                try (InputStream in = new GZIPInputStream(new ByteArrayInputStream(bytes))) {
                    int k;
                    while (n < start.length && (k = in.read(start, n, start.length - n)) > 0) {
                        n += k;
                    }
                } catch (IOException e) {
                    // a head cut inside the first member ends the stream early: judge what was inflated
                }
                if (n == 0) {
                    return fileName.endsWith(".g3.gz");
                }
                return looksLikeFrame(ByteBuffer.wrap(start, 0, n));
            }
            return looksLikeFrame(b);
        } catch (RuntimeException e) {
            return false;
        }
    }

    private static boolean looksLikeFrame(ByteBuffer b) {
        if (b.remaining() < 5) {
            return false;
        }
        int flag = b.get(b.position()) & 0xFF;
        if (flag > 1) {
            return false;
        }
        b.order(flag == 1 ? ByteOrder.LITTLE_ENDIAN : ByteOrder.BIG_ENDIAN);
        // any small non-zero class version: a version other than 1 must reach open() and fail there with its
        // own error; zeros (a sparse or torn file of another format) are not a frame
        int version = b.getInt(b.position() + 1);
        if (version < 1 || version > 255) {
            return false;
        }
        return b.remaining() < 13 || b.getInt(b.position() + 9) != 0; // frame types are non-zero codes
    }

    /** Whether the container starts with the gzip magic bytes. */
    static boolean isGzip(ContainerChannel channel) throws IOException {
        ByteBuffer magic = ByteBuffer.allocate(2);
        channel.readUpTo(magic, 0);
        return magic.position() == 2 && (magic.get(0) & 0xFF) == 0x1F && (magic.get(1) & 0xFF) == 0x8B;
    }

    @Override
    public Container open(ContainerSource source) throws IOException {
        return new G3Container(source);
    }

    /** A new container is an empty file; a new .gz is refused, since frames could never be appended to it. */
    @Override
    public Container create(ContainerSource source) throws IOException {
        if (source.fileName().endsWith(".gz")) {
            throw new java.nio.file.AccessDeniedException(source.name(), null, "cannot create a compressed G3 file: "
                    + "frames are appended to plain .g3 files only (spt3g: \"Cannot append to compressed file.\"); "
                    + "create a .g3 file and compress it when it is complete");
        }
        return open(source);
    }
}
