package org.containerfs.bench;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;

/**
 * A TCP connection on 127.0.0.1 whose far end a daemon thread reads and discards: a sink for
 * {@code transferTo} that really moves every byte (as sending a record to a client would).
 */
final class LoopbackSink implements AutoCloseable {
    private final SocketChannel client;
    private final SocketChannel server;
    private final Thread drain;

    LoopbackSink() throws IOException {
        try (ServerSocketChannel listener = ServerSocketChannel.open()) {
            listener.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            client = SocketChannel.open(listener.getLocalAddress());
            server = listener.accept();
        }
        drain = new Thread(() -> {
            ByteBuffer buf = ByteBuffer.allocateDirect(1 << 20);
            try {
                while (server.read(buf.clear()) >= 0) {
                    // discard
                }
            } catch (IOException closed) {
                // the sink was closed
            }
        }, "loopback-drain");
        drain.setDaemon(true);
        drain.start();
    }

    SocketChannel channel() {
        return client;
    }

    @Override
    public void close() throws IOException {
        client.close();
        server.close();
    }
}
