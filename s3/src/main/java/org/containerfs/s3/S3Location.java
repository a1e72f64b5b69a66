package org.containerfs.s3;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.Locale;

/**
 * One object's address, {@code s3://bucket/key}. Credentials are never part of it: a URI carrying
 * user info is refused with the user info redacted, since the location appears in every message.
 */
public record S3Location(String bucket, String key) {

    public S3Location {
        if (bucket.isEmpty() || key.isEmpty()) {
            throw new IllegalArgumentException("an S3 object needs a bucket and a key: s3://" + bucket + "/" + key);
        }
    }

    /** Parses {@code s3://bucket/key} (the key may contain further slashes). */
    public static S3Location parse(URI uri) {
        String scheme = uri.getScheme();
        if (scheme == null || !scheme.toLowerCase(Locale.ROOT).equals("s3")) {
            throw new IllegalArgumentException("not an s3:// URI: " + redacted(uri));
        }
        if (uri.getRawUserInfo() != null) {
            throw new IllegalArgumentException(redacted(uri) + ": credentials do not belong in an s3:// URI; "
                    + "set them the AWS SDK's standard way (AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY, AWS_PROFILE, "
                    + "~/.aws/credentials)");
        }
        String bucket = uri.getHost() != null ? uri.getHost() : uri.getAuthority();
        String path = uri.getPath();
        if (bucket == null || path == null || path.length() <= 1) {
            throw new IllegalArgumentException("an S3 container is named s3://bucket/key, not " + uri);
        }
        return new S3Location(bucket, path.substring(1));
    }

    /** Parses {@code s3://bucket/key} given as text. */
    public static S3Location parse(String text) {
        try {
            return parse(new URI(text));
        } catch (URISyntaxException e) {
            // keys may hold characters a URI must escape (spaces, %): take the text as it is
            if (!text.regionMatches(true, 0, "s3://", 0, 5)) {
                throw new IllegalArgumentException("not an s3:// URI: " + text, e);
            }
            String rest = text.substring(5);
            int slash = rest.indexOf('/');
            if (slash <= 0 || slash == rest.length() - 1) {
                throw new IllegalArgumentException("an S3 container is named s3://bucket/key, not " + text, e);
            }
            if (rest.substring(0, slash).contains("@")) {
                throw new IllegalArgumentException("s3://<redacted>@" + rest.substring(rest.indexOf('@') + 1)
                        + ": credentials do not belong in an s3:// URI", e);
            }
            return new S3Location(rest.substring(0, slash), rest.substring(slash + 1));
        }
    }

    /** Whether a command-line argument names an S3 object rather than a local path. */
    public static boolean isS3(String argument) {
        return argument.regionMatches(true, 0, "s3://", 0, 5);
    }

    /** The object beside this one: same key prefix, another last name. */
    public S3Location sibling(String fileName) {
        int slash = key.lastIndexOf('/');
        return new S3Location(bucket, key.substring(0, slash + 1) + fileName);
    }

    public URI uri() {
        try {
            return new URI("s3", bucket, "/" + key, null);
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException("s3://" + bucket + "/" + key, e);
        }
    }

    @Override
    public String toString() {
        return "s3://" + bucket + "/" + key;
    }

    /** A URI as it may be shown: any user info (an access key, a secret) replaced by {@code <redacted>}. */
    public static String redacted(URI uri) {
        if (uri.getRawUserInfo() == null) {
            return uri.toString();
        }
        String s = uri.toString();
        int at = s.indexOf('@');
        int start = s.indexOf("//") + 2;
        return s.substring(0, start) + "<redacted>" + s.substring(at);
    }
}
