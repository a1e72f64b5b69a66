package org.containerfs.scda;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.Inflater;

/** Corpus access, manifest parsing and an independent decoder (java.util.Base64 + Inflater). */
final class ScdaTestSupport {
    static final ScdaFileSystemProvider PROVIDER = new ScdaFileSystemProvider();

    private ScdaTestSupport() {}

    static Path corpus() {
        String prop = System.getProperty("containerfs.corpus");
        if (prop != null && Files.isDirectory(Paths.get(prop, "scda"))) {
            return Paths.get(prop, "scda");
        }
        try {
            return Paths.get(ScdaTestSupport.class.getResource("/corpus/scda/MANIFEST.tsv").toURI()).getParent();
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    static FileSystem open(Path file, Map<String, ?> env) throws IOException {
        return PROVIDER.newFileSystem(file, env);
    }

    static List<String[]> tsv(String name) throws IOException {
        List<String[]> rows = new ArrayList<>();
        List<String> lines = Files.readAllLines(corpus().resolve(name));
        for (String line : lines.subList(1, lines.size())) {
            if (!line.isEmpty()) {
                rows.add(line.split("\t", -1));
            }
        }
        return rows;
    }

    /** MANIFEST.tsv rows grouped by file, in file order. */
    static Map<String, List<String[]>> manifest() throws IOException {
        Map<String, List<String[]>> byFile = new LinkedHashMap<>();
        for (String[] row : tsv("MANIFEST.tsv")) {
            byFile.computeIfAbsent(row[0], k -> new ArrayList<>()).add(row);
        }
        return byFile;
    }

    /** The manifest's escaping: {@code \\} and {@code \xHH}. */
    static byte[] unescape(String s) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '\\' && i + 1 < s.length() && s.charAt(i + 1) == '\\') {
                out.write('\\');
                i++;
            } else if (c == '\\' && i + 3 < s.length() && s.charAt(i + 1) == 'x') {
                out.write(Integer.parseInt(s.substring(i + 2, i + 4), 16));
                i += 3;
            } else {
                out.write(c);
            }
        }
        return out.toByteArray();
    }

    static String sha256(byte[] data) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(data));
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * Decodes one item of the paper's convention without the provider: strip the 2-byte (or bare LF)
     * line breaks, base64-decode with java.util.Base64, check size and 'z', inflate with the zlib wrapper.
     */
    static byte[] independentDecode(byte[] text) throws Exception {
        StringBuilder b64 = new StringBuilder();
        String all = new String(text, java.nio.charset.StandardCharsets.ISO_8859_1);
        for (String line : all.split("\n", -1)) {
            if (line.isEmpty()) {
                continue;
            }
            b64.append(line.length() % 4 == 1 ? line.substring(0, line.length() - 1) : line);
        }
        byte[] stage1 = java.util.Base64.getDecoder().decode(b64.toString());
        long size = java.nio.ByteBuffer.wrap(stage1, 0, 8).getLong();
        if (stage1[8] != 'z') {
            throw new IllegalStateException("no 'z'");
        }
        Inflater inf = new Inflater();
        inf.setInput(stage1, 9, stage1.length - 9);
        byte[] out = new byte[(int) size];
        int n = 0;
        while (!inf.finished()) {
            int k = inf.inflate(out, n, out.length - n);
            if (k == 0 && (inf.needsInput() || n == out.length) && !inf.finished()) {
                throw new IllegalStateException("stream does not end after " + size + " bytes");
            }
            n += k;
        }
        inf.end();
        if (n != size) {
            throw new IllegalStateException("decoded " + n + " bytes, stored size " + size);
        }
        return out;
    }
}
