package org.containerfs.g3;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.WritableByteChannel;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileAlreadyExistsException;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.containerfs.spi.ContainerChannel;
import org.containerfs.spi.ContainerFormatException;
import org.containerfs.spi.ContainerWriter;
import org.containerfs.spi.InvalidNameException;
import org.containerfs.spi.Names;
import org.containerfs.spi.Node;

/**
 * Appends frames, as {@code G3Writer(append=True)} does. {@code mkdir /NNNNNN.<Type>} (the next index)
 * starts a frame at the end of the file; each key file written into it streams straight into the file
 * behind its key, with the frame CRC computed as the bytes pass. The frame is committed when the next frame
 * directory is created, on {@code Files.setAttribute(frameDir, "g3:commit", true)}, or when the file system
 * closes: its CRC is appended and then its entry count written into its header.
 *
 * <p>Memory: no value is held. A frame costs its key names plus 16 bytes per key, whatever the size of its
 * values; each write passes through with only the caller's buffer (the CRC is summed over that buffer).
 *
 * <p>Crash safety: until the commit, the header's entry count is {@link #UNCOMMITTED_COUNT} and a value
 * being written has the length {@link #UNWRITTEN_LENGTH}, both more than the file holds, so a reader that
 * meets the frame finds it cut off by the end of the file: our reader reports a truncated tail, spt3g reads
 * every frame before it and then fails on it as on any torn append. Every field is final before the count is
 * written, and a count written halfway (its low bytes) is still too large. The next append cuts that tail off,
 * the only change this writer ever makes to bytes already in the file.
 */
final class G3Writer implements ContainerWriter {
    private final G3Container container;
    private final G3Index index;
    private final ContainerChannel channel;
    private final String file;
    private final boolean sync;
    /** The key file being written: values stream into the file one at a time. */
    private BlobSink active;

    /** The entry count of a frame being written: more entries than it has, so a reader runs out of file first. */
    static final int UNCOMMITTED_COUNT = Integer.MAX_VALUE;
    /** The length of a value being written: more than any file holds, also after a torn update of its low half. */
    static final long UNWRITTEN_LENGTH = -1L;

    G3Writer(G3Container container) throws IOException {
        this.container = container;
        this.index = container.index();
        this.channel = container.source().channel();
        this.file = container.source().name();
        this.sync = container.source().options().getBoolean("sync", false);
        String fileName = container.source().fileName();
        if (container.gzip() != null || fileName.endsWith(".gz")) {
            throw new AccessDeniedException(file, null, "cannot append to a compressed G3 file: a gzip stream "
                    + "cannot be extended in place and spt3g itself refuses (\"Cannot append to compressed file.\"); "
                    + "decompress it to a .g3 file to append frames");
        }
    }

    @Override
    public String allowedWrites() {
        return "G3 files grow by appending frames: create directory /"
                + Names.indexed("", container.visibleFrames(), G3Container.WIDTH) + ".<FrameType>"
                + " (e.g. .Scan, .Observation, .adhoc-Abcd) and write key files into it; the frame is written when the "
                + "next frame directory is created, on Files.setAttribute(dir, \"g3:commit\", true), or on close";
    }

    @Override
    public void createDirectory(Node parent, String name, Map<String, Object> attributes) throws IOException {
        if (!parent.name().isEmpty()) {
            throw new AccessDeniedException(name, null, "frames are directories at the root; " + allowedWrites());
        }
        int next = container.visibleFrames();
        String number = Names.indexed("", next, G3Container.WIDTH);
        int dot = name.indexOf('.');
        if (dot < 0 || !name.substring(0, dot).equals(number)) {
            throw new AccessDeniedException(name, null, "the next frame is " + number + ".<FrameType>; " + allowedWrites());
        }
        Integer type = G3FrameTypes.parse(name.substring(dot + 1));
        if (type == null) {
            throw new AccessDeniedException(name, null, "'" + name.substring(dot + 1) + "' is not a frame type name "
                    + "(a standard name such as Scan or Observation, adhoc-<1 to 4 characters>, or 0xHHHHHHHH)");
        }
        commitStaged();
        // the staged frame takes the next index, so commit above must not change it
        long start = prepareTail();
        ByteBuffer header = ByteBuffer.allocate(G3Index.HEADER).order(ByteOrder.LITTLE_ENDIAN);
        header.put((byte) 1).putInt(1).putInt(UNCOMMITTED_COUNT).putInt(type).flip();
        channel.writeFully(header, start);
        container.setStaged(new G3Container.StagedFrame(type, start, start + G3Index.HEADER));
    }

    @Override
    public void checkNewFile(Node parent, String name, Map<String, Object> attributes) throws IOException {
        stagedKey(parent, name);
    }

    /** The raw key of {@code name} if the staged frame {@code parent} can take it; else refused. */
    private byte[] stagedKey(Node parent, String name) throws IOException {
        G3Container.StagedFrame frame = container.staged();
        if (frame == null || !(parent instanceof G3Container.Frame f) || f.onDisk()) {
            throw new AccessDeniedException(name, null, "written frames are never changed: key files go into the staged frame"
                    + (frame == null ? " (none yet)" : " /" + container.frameName(container.visibleFrames() - 1)) + "; "
                    + allowedWrites());
        }
        byte[] key;
        try {
            key = Names.decode(name);
        } catch (IllegalArgumentException e) {
            throw new InvalidNameException(name, "malformed %-escape in the key name");
        }
        if (key == null) {
            throw new InvalidNameException(name, "a shortened name (with %%) cannot be written; keys of more than "
                    + Names.MAX_COMPONENT_BYTES + " encoded bytes cannot be created through the file system");
        }
        if (!Names.component(key).equals(name)) {
            throw new InvalidNameException(name, "not the canonical name of that key: use " + Names.component(key));
        }
        if (frame.indexOf(name) >= 0) {
            throw new FileAlreadyExistsException(name, null, "a G3 frame holds each key once");
        }
        return key;
    }

    @Override
    public WritableByteChannel createFile(Node parent, String name, Map<String, Object> attributes) throws IOException {
        byte[] key = stagedKey(parent, name);
        G3Container.StagedFrame frame = container.staged();
        if (active != null) {
            throw new IOException(file + ": key file " + Names.component(active.key) + " of frame "
                    + container.frameName(container.visibleFrames() - 1) + " is still open; values stream into the file "
                    + "one at a time, so close it before creating " + name);
        }
        refuseIfFailed(frame);
        long at = frame.end;
        ByteBuffer entry = ByteBuffer.allocate(16 + key.length).order(ByteOrder.LITTLE_ENDIAN);
        entry.putLong(key.length).put(key).putLong(UNWRITTEN_LENGTH).flip();
        write(frame, entry, at);
        frame.end = at + entry.capacity();
        frame.crc = G3Crc.update(frame.crc, key, 0, key.length);
        active = new BlobSink(frame, Arrays.copyOf(key, key.length), frame.end - 8);
        return active;
    }

    /** A positional write of the staged frame; a failure leaves the frame uncommittable (its tail unfinished). */
    private void write(G3Container.StagedFrame frame, ByteBuffer bytes, long at) throws IOException {
        try {
            channel.writeFully(bytes, at);
        } catch (IOException | RuntimeException e) {
            frame.failure = e.toString();
            throw e;
        }
    }

    private void refuseIfFailed(G3Container.StagedFrame frame) throws IOException {
        if (frame.failure != null) {
            throw new IOException(file + ": frame " + container.frameName(container.visibleFrames() - 1) + " at byte "
                    + frame.start + " cannot be committed: a write into it failed (" + frame.failure + "); it stays an "
                    + "unfinished tail, which the next append cuts off");
        }
    }

    @Override
    public void setAttribute(Node node, String attribute, Object value) throws IOException {
        if (attribute.equals("commit") && Boolean.TRUE.equals(value instanceof String s ? Boolean.valueOf(s) : value)) {
            commitStaged();
            return;
        }
        throw new AccessDeniedException(node.name(), null, "only g3:commit = true can be set (it writes the staged frame); "
                + allowedWrites());
    }

    @Override
    public void close() throws IOException {
        commitStaged();
    }

    /**
     * Commits the staged frame: appends its CRC, then writes its entry count over the placeholder (the
     * commit point); with env {@code sync=true} each step is forced to disk before the next.
     */
    void commitStaged() throws IOException {
        G3Container.StagedFrame frame = container.staged();
        if (frame == null) {
            return;
        }
        if (active != null) {
            throw new IOException(file + ": a key file of frame " + container.frameName(container.visibleFrames() - 1)
                    + " is still open; close it before committing the frame");
        }
        refuseIfFailed(frame);
        write(frame, ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN).putInt(0, frame.crc), frame.end);
        if (sync) {
            channel.force(false);
        }
        int entries = frame.keys.size();
        write(frame, ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN).putInt(0, entries), frame.start + 5);
        if (sync) {
            channel.force(false);
        }
        container.setStaged(null);
        index.committed(frame.start, frame.end + 4 - frame.start, frame.typeCode, frame.crc, List.copyOf(frame.keys),
                Arrays.copyOf(frame.blobs, 2 * entries));
    }

    /** Where the frame goes: after the last complete frame, once a torn append has been cut off. */
    private long prepareTail() throws IOException {
        long next = index.nextFrame();
        if (index.damage() != null) {
            if (!index.tailTruncated()) {
                throw new ContainerFormatException(file, next, "refusing to append after damage",
                        "a file that ends with complete frames before appending", index.damage());
            }
            // A torn append: a prefix of a frame that no reader can use. Cutting it off is the only change
            // this writer ever makes to bytes already in the file.
            channel.truncate(next);
        } else if (channel.size() > next) {
            // bytes appeared after our last scan (another writer): do not overwrite them
            throw new ContainerFormatException(file, next, null, "the end of the last indexed frame to be the end of the file",
                    (channel.size() - next) + " more bytes");
        }
        return next;
    }

    /** A value streaming into the file behind its key; closing writes its length and adds it to the frame. */
    private final class BlobSink implements WritableByteChannel {
        private final G3Container.StagedFrame frame;
        private final byte[] key;
        private final long lengthAt;
        private long written;
        private boolean open = true;

        BlobSink(G3Container.StagedFrame frame, byte[] key, long lengthAt) {
            this.frame = frame;
            this.key = key;
            this.lengthAt = lengthAt;
        }

        @Override
        public int write(ByteBuffer src) throws IOException {
            if (!open) {
                throw new ClosedChannelException();
            }
            refuseIfFailed(frame);
            int n = src.remaining();
            int crc = G3Crc.update(frame.crc, src.duplicate());
            G3Writer.this.write(frame, src, lengthAt + 8 + written);
            frame.crc = crc;
            written += n;
            return n;
        }

        @Override
        public boolean isOpen() {
            return open;
        }

        @Override
        public void close() throws IOException {
            if (!open) {
                return;
            }
            open = false;
            active = null;
            if (container.staged() != frame || frame.failure != null) {
                return;
            }
            G3Writer.this.write(frame, ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(0, written), lengthAt);
            frame.add(key, lengthAt + 8, written);
            frame.end = lengthAt + 8 + written;
        }
    }
}
