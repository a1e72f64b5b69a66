package org.containerfs.s3;

import java.io.IOException;
import java.net.SocketTimeoutException;
import java.nio.file.AccessDeniedException;
import java.nio.file.NoSuchFileException;
import software.amazon.awssdk.core.exception.ApiCallAttemptTimeoutException;
import software.amazon.awssdk.core.exception.ApiCallTimeoutException;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.s3.model.S3Exception;

/**
 * SDK failures as the {@code IOException}s java.nio names, each naming the object and what was being
 * done. Messages carry the service's error code, never request headers (where signatures live).
 */
final class S3Errors {
    private S3Errors() {}

    /** Where the SDK's default chain looks for credentials (S3Settings), in its order. */
    static final String NO_CREDENTIALS = "no S3 credentials were found; they are looked for in the system properties "
            + "aws.accessKeyId and aws.secretAccessKey, the environment variables AWS_ACCESS_KEY_ID and "
            + "AWS_SECRET_ACCESS_KEY, a web identity token (AWS_WEB_IDENTITY_TOKEN_FILE), the profile AWS_PROFILE "
            + "(else default) in ~/.aws/credentials and ~/.aws/config (SSO included), and a container or EC2 instance "
            + "role; nothing was read";

    static IOException translate(SdkException e, S3Location object, String doing) {
        String name = object.toString();
        if (e instanceof S3Exception s3) {
            int status = s3.statusCode();
            String code = s3.awsErrorDetails() != null && s3.awsErrorDetails().errorCode() != null
                    ? s3.awsErrorDetails().errorCode() : "HTTP " + status;
            IOException out = switch (status) {
                case 404 -> new NoSuchFileException(name, null, "NoSuchBucket".equals(code)
                        ? "no bucket named " + object.bucket() : "no such key in bucket " + object.bucket());
                case 403, 401 -> new AccessDeniedException(name, null, "the S3 service refused " + doing + " ("
                        + code + "): the credentials were not accepted or do not allow reading this object; "
                        + "check AWS_PROFILE, AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY or ~/.aws/credentials");
                case 412 -> new IOException(name + " was replaced since it was opened (its ETag changed) while "
                        + doing + "; reopen it to read the new version");
                case 416 -> new IOException(name + " is shorter than when it was opened (" + doing
                        + " is past its end now): it was truncated or replaced; reopen it");
                default -> new IOException(name + ": the S3 service answered " + code + " to " + doing
                        + " (" + s3.awsErrorDetails().errorMessage() + ")");
            };
            out.initCause(e);
            return out;
        }
        IOException out;
        if (e instanceof ApiCallTimeoutException || e instanceof ApiCallAttemptTimeoutException
                || e.getCause() instanceof SocketTimeoutException) {
            out = new SocketTimeoutException(name + ": no answer in time while " + doing
                    + " (" + e.getMessage() + "); the S3 endpoint may be down or unreachable (the limits are env "
                    + "s3.connectTimeout, s3.requestTimeout and s3.totalTimeout)");
        } else if (e instanceof SdkClientException && e.getMessage() != null
                && e.getMessage().startsWith("Unable to load credentials")) {
            // the SDK's own text lists every provider of its chain (about 1,300 characters): kept as the cause only
            out = new AccessDeniedException(name, null, NO_CREDENTIALS);
        } else if (e instanceof SdkClientException) {
            // a socket's failure to connect, as java.net names it: nothing was learnt about the object
            out = new java.net.ConnectException(name + ": could not reach the S3 service while " + doing + " ("
                    + e.getMessage() + ")");
        } else {
            out = new IOException(name + ": " + doing + " failed (" + e.getMessage() + ")");
        }
        out.initCause(e);
        return out;
    }
}
