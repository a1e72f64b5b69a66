package org.containerfs.s3;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;

/**
 * A test class with its own in-process S3 server: started before the class's own {@code @BeforeAll}
 * (which creates buckets and uploads), stopped after it, its request log cleared before each test.
 */
public abstract class WithS3Server {
    protected static S3TestServer server;

    @BeforeAll
    static void startServer() throws Exception {
        server = new S3TestServer();
    }

    @AfterAll
    static void stopServer() throws Exception {
        server.close();
    }

    @BeforeEach
    void forgetEarlierRequests() {
        server.reset();
    }
}
