package org.containerfs.scda;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import org.containerfs.spi.Container;
import org.containerfs.spi.ContainerFormat;
import org.containerfs.spi.ContainerSource;
import org.containerfs.spi.FormatOptions;

/**
 * scda (libsc's serial-equivalent checkpoint format, Griesbach and Burstedde 2023): a 128-byte file
 * header F and sections I, B, A and V, plus the paper's compression convention.
 *
 * <p>env options: {@code lenient} (default false: digits only, user strings of at most 58 bytes,
 * exact padding; true: what libsc's reader also accepts), {@code decode} (default true: compressed
 * pairs shown decoded), {@code vendor} and {@code userString} (file header of a new file),
 * {@code lineBreak} ({@code unix} (default, byte-identical to libsc) or {@code mime}),
 * {@code encode} (default for new sections), {@code encodeLevel} (zlib level, default 9),
 * {@code sync} (fsync before each commit point).
 */
public final class ScdaFormat implements ContainerFormat {

    @Override
    public String name() {
        return "scda";
    }

    @Override
    public List<String> fileExtensions() {
        return List.of("scda");
    }

    @Override
    public boolean probe(ByteBuffer head, String fileName) {
        // "scdat" + two hex digits is the paper's magic family (sc%02xt%02x); other versions and
        // damaged magics of .scda files reach open() and fail there with a specific error.
        byte[] want = {'s', 'c', 'd', 'a', 't'};
        if (head.remaining() >= want.length) {
            boolean match = true;
            for (int i = 0; i < want.length; i++) {
                match &= head.get(head.position() + i) == want[i];
            }
            if (match) {
                return true;
            }
        }
        return fileName != null && fileName.toLowerCase(Locale.ROOT).endsWith(".scda") && head.remaining() > 0;
    }

    @Override
    public Container open(ContainerSource source) throws IOException {
        return new ScdaContainer(source);
    }

    @Override
    public Container create(ContainerSource source) throws IOException {
        FormatOptions o = source.options();
        byte[] vendor = bytes(o, "vendor", "containerfs");
        byte[] user = bytes(o, "userString", "");
        if (vendor.length > ScdaSyntax.MAX_VENDOR) {
            throw new IllegalArgumentException("env vendor: at most 20 bytes, got " + vendor.length);
        }
        if (user.length > ScdaSyntax.MAX_USER) {
            throw new IllegalArgumentException("env userString: at most 58 bytes, got " + user.length);
        }
        boolean mime = mime(o);
        source.channel().writeFully(ByteBuffer.wrap(fileHeader(vendor, user, mime)), 0);
        if (o.getBoolean("sync", false)) {
            source.channel().force(true);
        }
        return open(source);
    }

    static byte[] fileHeader(byte[] vendor, byte[] user, boolean mime) {
        byte[] h = new byte[ScdaSyntax.FILE_HEADER];
        System.arraycopy(ScdaSyntax.MAGIC, 0, h, 0, 7);
        h[7] = ' ';
        System.arraycopy(ScdaSyntax.fixedField(vendor, ScdaSyntax.VENDOR_FIELD, mime), 0, h, 8, ScdaSyntax.VENDOR_FIELD);
        h[32] = 'F';
        h[33] = ' ';
        System.arraycopy(ScdaSyntax.fixedField(user, ScdaSyntax.USER_FIELD, mime), 0, h, 34, ScdaSyntax.USER_FIELD);
        System.arraycopy(ScdaSyntax.dataPadding(0, -1, mime), 0, h, 96, 32);
        return h;
    }

    static boolean mime(FormatOptions o) {
        String style = o.getString("lineBreak", "unix");
        if (style.equalsIgnoreCase("mime")) {
            return true;
        }
        if (style.equalsIgnoreCase("unix")) {
            return false;
        }
        throw new IllegalArgumentException("env lineBreak must be unix or mime, got " + style);
    }

    private static byte[] bytes(FormatOptions o, String key, String defaultValue) {
        Object v = o.asMap().get(key);
        if (v == null) {
            return defaultValue.getBytes(StandardCharsets.UTF_8);
        }
        if (v instanceof byte[] b) {
            return b.clone();
        }
        return v.toString().getBytes(StandardCharsets.UTF_8);
    }
}
