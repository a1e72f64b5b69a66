package org.containerfs.spark;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;

/**
 * Damaged variants of corpus files, made the same way on every run (positions computed from the corpus's own
 * manifests, no randomness): the inputs of the damage tests.
 */
final class DamagedCopies {
    private DamagedCopies() {}

    /** A copy of {@code source} at {@code target} with every bit of the byte at {@code offset} inverted. */
    static Path flipByte(Path source, Path target, long offset) throws IOException {
        byte[] bytes = Files.readAllBytes(source);
        bytes[Math.toIntExact(offset)] ^= (byte) 0xff;
        return Files.write(target, bytes);
    }

    /** A copy of the first {@code length} bytes of {@code source} at {@code target}. */
    static Path cut(Path source, Path target, long length) throws IOException {
        Files.copy(source, target);
        try (FileChannel ch = FileChannel.open(target, StandardOpenOption.WRITE)) {
            ch.truncate(length);
        }
        return target;
    }

    /** Where each frame of a G3 corpus file starts, from the corpus's MANIFEST.tsv (one row per key, frame offsets repeat). */
    static long[] g3FrameOffsets(String file) throws IOException {
        List<String> lines = Files.readAllLines(CorpusReadTest.corpus("g3").resolve("MANIFEST.tsv"));
        List<String> header = List.of(lines.get(0).split("\t"));
        int fileColumn = header.indexOf("file");
        int frameColumn = header.indexOf("frame");
        int offsetColumn = header.indexOf("offset");
        return lines.stream().skip(1).map(l -> l.split("\t")).filter(c -> c[fileColumn].equals(file))
                .map(c -> List.of(Long.parseLong(c[frameColumn]), Long.parseLong(c[offsetColumn]))).distinct()
                .sorted((a, b) -> Long.compare(a.get(0), b.get(0))).mapToLong(c -> c.get(1)).toArray();
    }
}
