package org.containerfs.differential;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;
import org.containerfs.core.ContainerFileSystems;

/**
 * The damaged variants of one corpus file, generated from its bytes with seeds derived from the file's
 * name and the kind of damage (the same variants on every run and machine). Format-agnostic but for two
 * hints: where a payload lies (found by searching the bytes of the container's largest readable file, as
 * the provider reads it) and where a checksum lies ({@link #CHECKSUM_AT}; a gzip trailer for any
 * gzip file). A new format gets every generic variant without a line here.
 */
final class Damage {
    private Damage() {}

    /** One damaged copy: a name usable in a file name ([a-z0-9-]) and its bytes. */
    record Variant(String name, byte[] bytes) {}

    /**
     * Per format: the offset of a byte inside a stored checksum of an uncompressed file, or -1. G3 ends
     * every frame with its CRC-32C, so the last four bytes of a file of whole frames are one.
     */
    static final Map<String, java.util.function.ToLongFunction<byte[]>> CHECKSUM_AT = Map.of(
            "g3", bytes -> bytes.length >= 4 ? bytes.length - 2 : -1);

    static List<Variant> of(String format, Path corpusFile) throws IOException {
        byte[] original = Files.readAllBytes(corpusFile);
        String name = corpusFile.getFileName().toString();
        List<Variant> variants = new ArrayList<>();
        int n = original.length;
        if (n >= 2) {
            // cut: at the thirds, one byte short, and at a seeded point
            for (long at : new long[] {n / 3, 2L * n / 3, n - 1, 1 + random(format, name, "cut").nextInt(n - 1)}) {
                add(variants, original, new Variant("cut-" + at, Arrays.copyOf(original, (int) at)));
            }
        }
        if (n >= 1) {
            Random header = random(format, name, "header");
            add(variants, original, flip("flip-header", original, header.nextInt(Math.min(n, 32)), header));
            long payload = payloadOffset(format, corpusFile, original);
            Random payloadSeed = random(format, name, "payload");
            add(variants, original, flip("flip-payload", original, payload >= 0 ? payload : n / 2, payloadSeed));
        }
        long checksum = gzip(original) ? n - 6 : CHECKSUM_AT.getOrDefault(format, b -> -1).applyAsLong(original);
        if (checksum >= 0 && checksum < n) {
            add(variants, original, flip("flip-checksum", original, checksum, random(format, name, "checksum")));
        }
        Random garbage = random(format, name, "trailing");
        byte[] tail = new byte[1 + garbage.nextInt(63)];
        garbage.nextBytes(tail);
        add(variants, original, new Variant("trailing-garbage", concat(original, tail)));
        if (gzip(original) && n > 18) {
            Random gz = random(format, name, "gzip");
            // the deflate stream, the stored length (ISIZE), and a second member that is not one
            add(variants, original, flip("gz-deflate", original, 10 + gz.nextInt(n - 18), gz));
            add(variants, original, flip("gz-isize", original, n - 1, gz));
            add(variants, original, new Variant("gz-bad-member", concat(original, new byte[] {0x1f, (byte) 0x8b, 8, 0, 1, 2, 3})));
        }
        return variants;
    }

    private static void add(List<Variant> variants, byte[] original, Variant v) {
        // two kinds of damage that make the same bytes (a tiny file) are one input
        if (Arrays.equals(v.bytes(), original) || variants.stream().anyMatch(o -> Arrays.equals(o.bytes(), v.bytes()))) {
            return;
        }
        variants.add(v);
    }

    private static Variant flip(String kind, byte[] original, long at, Random random) {
        byte[] bytes = original.clone();
        bytes[(int) at] ^= (byte) (1 + random.nextInt(255));
        return new Variant(kind + "-" + at, bytes);
    }

    private static boolean gzip(byte[] b) {
        return b.length >= 2 && (b[0] & 0xff) == 0x1f && (b[1] & 0xff) == 0x8b;
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] out = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }

    /**
     * The offset of a byte in the middle of the largest file the provider reads from this container, found
     * by searching the container's bytes for a window of that file's content; -1 when the container does not
     * open, has no readable file of 16 bytes or more, or stores it transformed (compressed, encoded).
     */
    static long payloadOffset(String format, Path container, byte[] bytes) {
        try (FileSystem fs = ContainerFileSystems.open(container)) {
            Path largest = null;
            long largestSize = 15;
            try (Stream<Path> walk = Files.walk(fs.getPath("/"))) {
                for (Path p : (Iterable<Path>) walk::iterator) {
                    if (Files.isRegularFile(p) && Files.size(p) > largestSize) {
                        largest = p;
                        largestSize = Files.size(p);
                    }
                }
            }
            if (largest == null) {
                return -1;
            }
            byte[] window = new byte[16];
            long middle = largestSize / 2 - 8;
            try (InputStream in = Files.newInputStream(largest)) {
                in.skipNBytes(middle);
                in.readNBytes(window, 0, 16);
            }
            int found = indexOf(bytes, window);
            return found < 0 ? -1 : found + 8;
        } catch (IOException | RuntimeException unreadable) {
            return -1;
        }
    }

    private static int indexOf(byte[] haystack, byte[] needle) {
        outer:
        for (int i = 0; i + needle.length <= haystack.length; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (haystack[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }

    /** A generator seeded by the format, the corpus file's name and the kind of damage. */
    static Random random(String format, String name, String kind) {
        try {
            byte[] d = MessageDigest.getInstance("SHA-256")
                    .digest((format + "/" + name + "/" + kind).getBytes(StandardCharsets.UTF_8));
            return new Random(ByteBuffer.wrap(d).getLong());
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
