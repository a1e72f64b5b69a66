package org.containerfs.s3;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/** Finds the test secret key in files: every output the S3 tests leave must be free of it. */
public final class SecretScan {
    private SecretScan() {}

    /** The files under {@code roots} (files or directories) that contain the secret, as bytes anywhere. */
    public static List<Path> filesContainingTheSecret(Path... roots) throws IOException {
        byte[] secret = S3TestServer.SECRET_KEY.getBytes(StandardCharsets.UTF_8);
        List<Path> found = new ArrayList<>();
        for (Path root : roots) {
            if (!Files.exists(root)) {
                continue;
            }
            try (Stream<Path> walk = Files.walk(root)) {
                for (Path f : (Iterable<Path>) walk.filter(Files::isRegularFile)::iterator) {
                    if (contains(Files.readAllBytes(f), secret)) {
                        found.add(f);
                    }
                }
            }
        }
        return found;
    }

    private static boolean contains(byte[] haystack, byte[] needle) {
        outer:
        for (int i = 0; i + needle.length <= haystack.length; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (haystack[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return true;
        }
        return false;
    }
}
