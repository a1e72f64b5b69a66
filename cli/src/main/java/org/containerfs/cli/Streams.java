package org.containerfs.cli;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.Files;
import java.nio.file.Path;

/** Copies a container file to a stream in large positional reads (the provider serves each straight from the container). */
final class Streams {
    static final int BUFFER = 1 << 20;

    private Streams() {}

    /** Standard output went away (e.g. {@code containerfs cat ... | head}): stop reading, quietly. */
    static final class OutputClosedException extends IOException {
        private static final long serialVersionUID = 1L;

        OutputClosedException() {
            super("standard output was closed");
        }
    }

    static long copy(Path source, OutputStream out) throws IOException {
        try (SeekableByteChannel in = Files.newByteChannel(source)) {
            return copy(in, out);
        }
    }

    static long copy(SeekableByteChannel in, OutputStream out) throws IOException {
        return copy(in, out, n -> {});
    }

    /** Copies and tells {@code copied} the count of each piece written (for a progress line). */
    static long copy(SeekableByteChannel in, OutputStream out, java.util.function.LongConsumer copied) throws IOException {
        ByteBuffer buffer = ByteBuffer.allocate(BUFFER);
        long total = 0;
        int n;
        while ((n = in.read(buffer.clear())) >= 0) {
            out.write(buffer.array(), 0, n);
            // a PrintStream keeps quiet about a closed pipe: ask it, or a huge record would be read in vain
            if (out instanceof PrintStream ps && ps.checkError()) {
                throw new OutputClosedException();
            }
            total += n;
            copied.accept(n);
        }
        return total;
    }
}
