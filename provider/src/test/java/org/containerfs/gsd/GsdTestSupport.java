package org.containerfs.gsd;

import org.containerfs.core.ContainerFileSystems;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystem;
import java.nio.file.spi.FileSystemProvider;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** Shared helpers of the GSD tests: corpus location, file systems, chunk writing, python3-gsd. */
final class GsdTestSupport {
    static final String PYTHON = "/usr/bin/python3";

    private GsdTestSupport() {}

    static Path corpus(String name) {
        String dir = System.getProperty("containerfs.corpus", "src/test/resources/corpus");
        return Paths.get(dir, "gsd", name);
    }

    /** The installed gsd provider, used directly (FileSystems.newFileSystem would offer create=true to zipfs). */
    static FileSystemProvider provider() {
        for (FileSystemProvider p : FileSystemProvider.installedProviders()) {
            if (p.getScheme().equals("gsd")) {
                return p;
            }
        }
        throw new IllegalStateException("the gsd provider is not registered in META-INF/services");
    }

    static FileSystem open(Path file, Map<String, ?> env) throws IOException {
        return provider().newFileSystem(file, env);
    }

    static FileSystem openRead(Path file) throws IOException {
        return open(file, Map.of());
    }

    static FileSystem openWrite(Path file, Map<String, Object> extra) throws IOException {
        Map<String, Object> env = new HashMap<>(extra);
        env.put("accessMode", "readWrite");
        return open(file, env);
    }

    static FileSystem create(Path file, Map<String, Object> extra) throws IOException {
        Map<String, Object> env = new HashMap<>(extra);
        env.put("create", "true");
        return open(file, env);
    }

    /** Writes one chunk file with its type and width as creation attributes. */
    static void writeChunk(Path chunk, String type, int m, byte[] data) throws IOException {
        try (SeekableByteChannel ch = Files.newByteChannel(chunk,
                EnumSet.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE),
                ContainerFileSystems.attribute("gsd:type", type), ContainerFileSystems.attribute("gsd:M", m))) {
            ByteBuffer b = ByteBuffer.wrap(data);
            while (b.hasRemaining()) {
                ch.write(b);
            }
        }
    }

    static String sha256(byte[] data) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(data));
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    static Path interopScript() {
        String dir = System.getProperty("containerfs.corpus", "src/test/resources/corpus");
        return Paths.get(dir).getParent().resolve("gsd-interop").resolve("gsd_tool.py");
    }

    /**
     * Runs the interop script with python3-gsd, commands chained with "--"; returns each command's
     * output, failing on a non-zero exit.
     */
    static List<String> python(String... args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>();
        cmd.add(PYTHON);
        cmd.add(interopScript().toString());
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(false).start();
        byte[] out = p.getInputStream().readAllBytes();
        byte[] err = p.getErrorStream().readAllBytes();
        if (!p.waitFor(60, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new IOException("python timed out: " + cmd);
        }
        if (p.exitValue() != 0) {
            throw new IOException("python3-gsd failed (" + p.exitValue() + ") for " + cmd + ":\n"
                    + new String(err, StandardCharsets.UTF_8) + new String(out, StandardCharsets.UTF_8));
        }
        List<String> outputs = new ArrayList<>();
        StringBuilder current = new StringBuilder();
        for (String line : new String(out, StandardCharsets.UTF_8).split("\n")) {
            if (line.equals("==END==")) {
                outputs.add(current.toString());
                current.setLength(0);
            } else {
                current.append(line).append('\n');
            }
        }
        return outputs;
    }
}
