package org.containerfs.differential;

import java.net.URI;
import java.nio.file.Path;
import org.containerfs.s3.S3Containers;
import org.containerfs.s3.S3TestServer;

/**
 * The S3 route: every input uploaded once to s3proxy in this JVM ({@link S3TestServer}, objects in memory)
 * and opened as {@code s3://differential/<format>/<name>}, walked through java.nio.
 */
final class S3Door implements Door {
    private static final String BUCKET = "differential";
    private final S3TestServer server;

    S3Door(Path inputsRoot) throws Exception {
        server = new S3TestServer();
        server.createBucket(BUCKET);
        server.putTree(BUCKET, "", inputsRoot);
    }

    @Override
    public String name() {
        return "s3";
    }

    @Override
    public Answer answer(Input input) throws Exception {
        URI uri = URI.create("s3://" + BUCKET + "/" + input.relative());
        return NioWalk.openAndWalk(() -> S3Containers.open(uri, server.env()));
    }

    @Override
    public void close() throws Exception {
        server.close();
    }
}
