package org.containerfs.g3;

import java.io.ByteArrayOutputStream;
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
 * Appends frames, as {@code G3Writer(append=True)} does. {@code mkdir /NNNNNN.<Type>} (the next
 * index) stages a frame in memory; key files written into it are its blobs, taken verbatim. The
 * frame is serialized (little-endian, version 1, CRC) and appended in one write at the end of the
 * file when the next frame directory is created, on {@code Files.setAttribute(frameDir, "g3:commit", true)},
 * or when the file system closes. No existing byte is ever changed: G3 has no in-place commit step.
 * A writer killed mid-write leaves a prefix of a frame, which readers report as a truncated tail and
 * which the next append cuts off before writing.
 */
final class G3Writer implements ContainerWriter {
    private final G3Container container;
    private final G3Index index;
    private final ContainerChannel channel;
    private final String file;
    private final boolean sync;
    private int openSinks;

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
        container.setStaged(new G3Container.StagedFrame(type));
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
        openSinks++;
        return new BlobSink(container.staged(), key);
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

    /** Serializes the staged frame and appends it in one write; the frame is durable once that write returns. */
    void commitStaged() throws IOException {
        G3Container.StagedFrame frame = container.staged();
        if (frame == null) {
            return;
        }
        if (openSinks > 0) {
            throw new IOException(file + ": a key file of frame " + container.frameName(container.visibleFrames() - 1)
                    + " is still open; close it before committing the frame");
        }
        long start = prepareTail();
        long length = G3Index.HEADER + 4L;
        for (int i = 0; i < frame.keys.size(); i++) {
            length += 16L + frame.keys.get(i).length + frame.blobs.get(i).length;
        }
        if (length > Integer.MAX_VALUE - 16) {
            throw new IOException(file + ": frame " + container.frameName(container.visibleFrames() - 1) + " would be "
                    + length + " bytes; one write is limited to 2 GiB");
        }
        ByteBuffer out = ByteBuffer.allocate((int) length).order(ByteOrder.LITTLE_ENDIAN);
        out.put((byte) 1).putInt(1).putInt(frame.keys.size()).putInt(frame.typeCode);
        long[] blobs = new long[2 * frame.keys.size()];
        int crc = 0;
        for (int i = 0; i < frame.keys.size(); i++) {
            byte[] key = frame.keys.get(i);
            byte[] blob = frame.blobs.get(i);
            out.putLong(key.length).put(key).putLong(blob.length);
            blobs[2 * i] = start + out.position();
            blobs[2 * i + 1] = blob.length;
            out.put(blob);
            crc = G3Crc.update(G3Crc.update(crc, key, 0, key.length), blob, 0, blob.length);
        }
        out.putInt(crc);
        out.flip();
        channel.writeFully(out, start); // the commit point: one write at the end of the file
        if (sync) {
            channel.force(false);
        }
        container.setStaged(null);
        index.committed(start, length, frame.typeCode, crc, List.copyOf(frame.keys), blobs);
    }

    /** Where the frame goes: after the last complete frame, once a torn append has been cut off. */
    private long prepareTail() throws IOException {
        long next = index.nextFrame();
        if (index.damage() != null) {
            if (!index.tailTruncated()) {
                throw new ContainerFormatException(file, next, "a file that ends with complete frames before appending, but "
                        + index.damage() + "; refusing to append after damage");
            }
            // A torn append: a prefix of a frame that no reader can use. Cutting it off is the only change
            // this writer ever makes to bytes already in the file.
            channel.truncate(next);
        } else if (channel.size() > next) {
            // bytes appeared after our last scan (another writer): do not overwrite them
            throw new ContainerFormatException(file, next, "the end of the last indexed frame to be the end of the file, but "
                    + "the file holds " + (channel.size() - next) + " more bytes");
        }
        return next;
    }

    private final class BlobSink implements WritableByteChannel {
        private final G3Container.StagedFrame frame;
        private final byte[] key;
        private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        private boolean open = true;

        BlobSink(G3Container.StagedFrame frame, byte[] key) {
            this.frame = frame;
            this.key = key;
        }

        @Override
        public int write(ByteBuffer src) throws IOException {
            if (!open) {
                throw new ClosedChannelException();
            }
            int n = src.remaining();
            byte[] chunk = new byte[n];
            src.get(chunk);
            bytes.write(chunk);
            return n;
        }

        @Override
        public boolean isOpen() {
            return open;
        }

        @Override
        public void close() {
            if (!open) {
                return;
            }
            open = false;
            openSinks--;
            if (container.staged() == frame) {
                frame.keys.add(Arrays.copyOf(key, key.length));
                frame.blobs.add(bytes.toByteArray());
            }
        }
    }
}
