package org.containerfs.core;

import java.net.URI;
import java.nio.charset.StandardCharsets;

/** {@code <format>:<container uri>!<entry path>}, as zipfs does with {@code jar:file:...!/entry}. */
final class Uris {
    private Uris() {}

    static URI containerUri(String scheme, URI containerUri, String entryPath) {
        // A '!' inside the container's own URI (/data/run!/conf.lime) would make "!/" ambiguous:
        // escape it, so the first "!/" is always the separator (the file's URI decodes %21 back to '!').
        String container = containerUri.toString().replace("!", "%21");
        return URI.create(scheme + ":" + container + "!" + encodePath(entryPath));
    }

    /** The container file's URI inside a containerfs URI. */
    static URI containerOf(URI uri) {
        String ssp = uri.getRawSchemeSpecificPart();
        int sep = ssp.indexOf("!/");
        return URI.create(sep < 0 ? ssp : ssp.substring(0, sep));
    }

    /** The decoded entry path of a containerfs URI ("/" if none). */
    static String entryOf(URI uri) {
        String ssp = uri.getRawSchemeSpecificPart();
        int sep = ssp.indexOf("!/");
        return sep < 0 ? "/" : decode(ssp.substring(sep + 1));
    }

    private static String encodePath(String path) {
        StringBuilder sb = new StringBuilder();
        for (byte b : path.getBytes(StandardCharsets.UTF_8)) {
            int c = b & 0xFF;
            if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
                    || "/-._~!$&'()*+,;=:@".indexOf(c) >= 0) {
                sb.append((char) c);
            } else {
                sb.append('%').append(Character.toUpperCase(Character.forDigit(c >> 4, 16)))
                        .append(Character.toUpperCase(Character.forDigit(c & 0xF, 16)));
            }
        }
        return sb.toString();
    }

    private static String decode(String raw) {
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream(raw.length());
        for (int i = 0; i < raw.length(); i++) {
            char c = raw.charAt(i);
            if (c == '%' && i + 2 < raw.length()) {
                out.write(Integer.parseInt(raw.substring(i + 1, i + 3), 16));
                i += 2;
            } else {
                byte[] b = String.valueOf(c).getBytes(StandardCharsets.UTF_8);
                out.write(b, 0, b.length);
            }
        }
        return out.toString(StandardCharsets.UTF_8);
    }
}
