package org.containerfs.lime;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.WritableByteChannel;
import java.nio.file.AccessDeniedException;
import java.util.Map;
import org.containerfs.spi.AppendSink;
import org.containerfs.spi.ContainerChannel;
import org.containerfs.spi.ContainerFormatException;
import org.containerfs.spi.ContainerWriter;
import org.containerfs.spi.InvalidNameException;
import org.containerfs.spi.Names;
import org.containerfs.spi.Node;

/**
 * Appends LIME records. Commit protocol of one record at offset {@code S} (the old end of file):
 * <ol>
 *   <li>144 zero bytes at {@code S}: the header's place, reserved;</li>
 *   <li>the payload streams to {@code S+144} as the user writes it, then its zero padding;</li>
 *   <li>on close, the real header is written at {@code S} in one 144-byte write: the commit point;</li>
 *   <li>if the record joins the last message, the previous record's ME bit is cleared in place
 *       (one byte at {@code prev+6}). This is the one in-place change: LIME's own message protocol
 *       demands it. Before it, the file is the "orphan" layout every c-lime tool reads.</li>
 * </ol>
 * A writer killed before step 3 leaves a tail that starts with 144 zero bytes (or a shorter
 * tail): readers ignore it as an uncommitted append, and the next append truncates it away.
 * c-lime's {@code lime_contents} lists every committed record and then reports the zero header as
 * a wrong magic number.
 */
final class LimeWriter implements ContainerWriter {
    /** {@code recNN}, any number of digits: the shape of every record name, whatever the number. */
    private static final java.util.regex.Pattern RECORD_NAME = java.util.regex.Pattern.compile(
            java.util.regex.Pattern.quote(LimeContainer.RECORD_PREFIX) + "[0-9]+");
    private static final ByteBuffer ZEROS = ByteBuffer.allocate(LimeHeader.SIZE).asReadOnlyBuffer();

    private final LimeContainer container;
    private final LimeIndex index;
    private final ContainerChannel channel;
    private final String file;
    private final boolean sync;
    private RecordSink active;
    /** True once this writer committed a record: the file then reaches at least the index's next header. */
    private boolean endIsOurs;

    LimeWriter(LimeContainer container) {
        this.container = container;
        this.index = container.index();
        this.channel = container.source().channel();
        this.file = container.source().name();
        this.sync = container.source().options().getBoolean("sync", false);
    }

    @Override
    public String allowedWrites() {
        return "LIME containers grow by appending: create directory /"
                + LimeContainer.messageName(container.visibleMessages())
                + " to start a new message, or a file recNN.<type> with the next record number in the last message";
    }

    @Override
    public void createDirectory(Node parent, String name, Map<String, Object> attributes) throws IOException {
        if (!parent.name().isEmpty()) {
            throw new AccessDeniedException(name, null, "LIME messages are directories at the root; " + allowedWrites());
        }
        if (container.pendingMessage()) {
            throw new AccessDeniedException(name, null, "message "
                    + LimeContainer.messageName(container.visibleMessages() - 1)
                    + " has no record yet (LIME has no empty messages): write a record into it first");
        }
        String expected = LimeContainer.messageName(container.visibleMessages());
        if (!name.equals(expected)) {
            throw new AccessDeniedException(name, null, "the next message is " + expected + "; " + allowedWrites());
        }
        container.setPendingMessage(true);
    }

    @Override
    public void checkNewFile(Node parent, String name, Map<String, Object> attributes) throws IOException {
        recordType(parent, name);
    }

    /** The type bytes of {@code name} if it is the next record's canonical name in the last message; else refused. */
    private byte[] recordType(Node parent, String name) throws AccessDeniedException {
        int dot = name.indexOf('.');
        String givenPrefix = dot < 0 ? name : name.substring(0, dot);
        if (!RECORD_NAME.matcher(givenPrefix).matches()) {
            throw new InvalidNameException(name, "LIME records are named " + LimeContainer.RECORD_PREFIX
                    + "NN.<type> (the record's number in its message and its type); " + allowedWrites());
        }
        if (!(parent instanceof LimeContainer.Message message) || message.message != container.visibleMessages() - 1) {
            String last = container.visibleMessages() == 0 ? "(none yet: create /msg01 first)"
                    : "/" + LimeContainer.messageName(container.visibleMessages() - 1);
            throw new AccessDeniedException(name, null, "records are appended to the last message " + last
                    + " only; " + allowedWrites());
        }
        int position = message.end() - message.first();
        String prefix = Names.indexed(LimeContainer.RECORD_PREFIX, position + 1L, LimeContainer.WIDTH);
        if (!givenPrefix.equals(prefix)) {
            throw new AccessDeniedException(name, null, "the next record in " + message.name() + " is "
                    + prefix + ".<type>");
        }
        byte[] type = dot < 0 ? new byte[0] : decodeType(name, name.substring(dot + 1));
        if (!Names.prefixed(prefix, type).equals(name)) {
            throw new InvalidNameException(name, "not the canonical name of that type: use "
                    + Names.prefixed(prefix, type));
        }
        return type;
    }

    @Override
    public WritableByteChannel createFile(Node parent, String name, Map<String, Object> attributes) throws IOException {
        if (active != null) {
            throw new IOException(file + ": record " + active.name + " is still being written; close it first "
                    + "(a LIME container takes one record at a time)");
        }
        byte[] type = recordType(parent, name);
        long start = prepareTail();
        active = new RecordSink(name, start, type, !((LimeContainer.Message) parent).onDisk());
        return active;
    }

    private static byte[] decodeType(String name, String encoded) throws InvalidNameException {
        byte[] type;
        try {
            type = Names.decode(encoded);
        } catch (IllegalArgumentException e) {
            throw new InvalidNameException(name, "malformed %-escape in the type");
        }
        if (type == null) {
            throw new InvalidNameException(name, "a shortened name (with %%) cannot be written");
        }
        if (type.length > LimeHeader.MAX_WRITTEN_TYPE) {
            throw new InvalidNameException(name, "a LIME type has at most " + LimeHeader.MAX_WRITTEN_TYPE
                    + " bytes (c-lime's writer cuts longer ones); this one has " + type.length);
        }
        for (byte b : type) {
            if (b == 0) {
                throw new InvalidNameException(name, "a LIME type cannot contain NUL (%00)");
            }
        }
        return type;
    }

    /** Where the new record goes: the end of the last complete record, after removing a torn append. */
    private long prepareTail() throws IOException {
        long next = index.nextHeader();
        if (endIsOurs && index.damage() == null) {
            return next; // our last commit wrote the file up to next (we hold the writer's lock): no stat
        }
        long size = channel.size();
        if (index.damage() != null) {
            if (!index.tailIsUncommitted()) {
                throw new ContainerFormatException(file, Math.min(next, size), "refusing to append after damage",
                        "a container that ends with complete records before appending", index.damage());
            }
            // A torn append (ours: a zero header; or a partial header): nothing a reader could use.
            channel.truncate(next);
            size = next;
        }
        if (next > size) {
            // The last record's padding was cut off: complete it, so the new header is 8-aligned.
            channel.writeFully(ByteBuffer.allocate((int) (next - size)), size);
        }
        return next;
    }

    @Override
    public void close() throws IOException {
        if (active != null) {
            active.close();
        }
        container.setPendingMessage(false);
    }

    private final class RecordSink extends AppendSink {
        private final String name;
        private final long start;
        private final byte[] type;
        private final boolean newMessage;

        RecordSink(String name, long start, byte[] type, boolean newMessage) throws IOException {
            super(channel, start + LimeHeader.SIZE);
            this.name = name;
            this.start = start;
            this.type = type;
            this.newMessage = newMessage;
            channel.writeFully(ZEROS.duplicate(), start);
        }

        @Override
        protected void commit() throws IOException {
            active = null;
            long written = written();
            int pad = LimeHeader.padding(written);
            if (pad > 0) {
                channel.writeFully(ByteBuffer.allocate(pad), start + LimeHeader.SIZE + written);
            }
            if (sync) {
                channel.force(false);
            }
            int flags = LimeHeader.ME | (newMessage ? LimeHeader.MB : 0);
            channel.writeFully(LimeHeader.encode(newMessage, true, written, type), start); // commit point
            if (!newMessage && index.records() > 0) {
                int prev = index.records() - 1;
                int prevFlags = index.flags(prev);
                if ((prevFlags & LimeHeader.ME) != 0) {
                    // LIME's message protocol: only the last record of a message carries ME.
                    int cleared = prevFlags & ~LimeHeader.ME;
                    channel.writeFully(ByteBuffer.wrap(new byte[] {(byte) cleared}),
                            index.headerOffset(prev) + LimeHeader.FLAGS_OFFSET);
                    index.setFlags(prev, cleared);
                }
            }
            if (sync) {
                channel.force(false);
            }
            index.committed(start, written, flags, type);
            endIsOurs = true;
            if (newMessage) {
                container.setPendingMessage(false);
            }
        }
    }
}
