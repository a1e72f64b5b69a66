package org.containerfs.s3;

import java.io.IOException;
import java.net.URI;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
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

    /**
     * Opens what the argument names: the object {@code s3://bucket/key}, or, where there is no such object, the
     * prefix {@code key/} as one tree of the containers below it ({@link S3Containers#openTree}); a bucket alone
     * ({@code s3://bucket/}) is the tree of the whole bucket. (A trailing "/" does not survive the argument's
     * parse into a Path, so a prefix is known by the absence of an object of its name.) When neither exists, the
     * object's {@code NoSuchFileException} is thrown. {@code treeEnv} goes to the tree.
     */
    public static FileSystem openContainerOrTree(Path argument, Map<String, ?> objectEnv, Map<String, ?> treeEnv)
            throws IOException {
        String s = argument.toString();
        String rest = s.substring(s.startsWith("s3://") ? 5 : 4);
        while (rest.endsWith("/")) {
            rest = rest.substring(0, rest.length() - 1);
        }
        int slash = rest.indexOf('/');
        if (slash < 0) {
            return S3Containers.openTree(prefixUri(rest, ""), treeEnv);
        }
        try {
            return open(argument, objectEnv);
        } catch (NoSuchFileException missing) {
            try {
                return S3Containers.openTree(prefixUri(rest.substring(0, slash), rest.substring(slash + 1) + "/"), treeEnv);
            } catch (NoSuchFileException noPrefixEither) {
                missing.addSuppressed(noPrefixEither);
                throw missing;
            }
        }
    }

    private static URI prefixUri(String bucket, String prefix) {
        try {
            return new URI("s3", bucket, "/" + prefix, null);
        } catch (java.net.URISyntaxException e) {
            throw new IllegalArgumentException("s3://" + bucket + "/" + prefix, e);
        }
    }

    /** Refuses a write to {@code argument} (a read-write mount, an upload) before touching anything. */
    public static AccessDeniedException refusal(Path argument, String refused) {
        return new AccessDeniedException(display(argument), null, S3Containers.readOnlyReason(refused));
    }
}
