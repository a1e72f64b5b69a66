package org.containerfs.s3;

import java.io.IOException;
import java.net.URI;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/**
 * Command-line container arguments that name S3 objects. A picocli {@code Path} parameter turns
 * {@code s3://bucket/key} into the local path {@code s3:/bucket/key}; a path that reads so and does not
 * exist locally is taken for the object. One place for the CLI and the mount to ask.
 */
public final class S3Arguments {
    private S3Arguments() {}

    /** Whether {@code argument} (as given, or as a Path made of it) names an S3 object. */
    public static boolean isS3(Path argument) {
        String s = argument.toString();
        return s.regionMatches(true, 0, "s3:/", 0, 4) && !Files.exists(argument);
    }

    /** The {@code s3://bucket/key} URI of an argument for which {@link #isS3} holds. */
    public static URI uri(Path argument) {
        String s = argument.toString();
        return S3Location.parse("s3://" + s.substring(s.startsWith("s3://") ? 5 : 4)).uri();
    }

    /** How the object is shown: {@code s3://bucket/key} (never with credentials). */
    public static String display(Path argument) {
        return S3Location.parse(uri(argument)).toString();
    }

    /** Opens the object read-only; a writable env is refused before any request. */
    public static FileSystem open(Path argument, Map<String, ?> env) throws IOException {
        return S3Containers.open(uri(argument), env);
    }

    /** Refuses a write to {@code argument} (a read-write mount, an upload) before touching anything. */
    public static AccessDeniedException refusal(Path argument, String refused) {
        return new AccessDeniedException(display(argument), null, S3Containers.readOnlyReason(refused));
    }
}
