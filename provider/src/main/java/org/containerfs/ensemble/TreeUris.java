package org.containerfs.ensemble;

import java.net.URI;
import java.net.URISyntaxException;

/**
 * {@code ensemble:<directory uri>!<path in the tree>}, the form the format schemes use for one
 * container ({@code lime:file:///data/conf.lime!/msg01}), with the tree's directory in place of the
 * container: {@code ensemble:file:///data/run/!/conf.1000.lime/msg02}.
 */
final class TreeUris {
    static final String SCHEME = "ensemble";

    private TreeUris() {}

    static URI uri(URI base, String absolutePath) {
        String encodedPath;
        try {
            // the multi-argument constructor quotes what a path may not hold (spaces, %, non-ASCII...)
            encodedPath = new URI(null, null, absolutePath, null).getRawPath();
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException(absolutePath + ": not representable in a URI", e);
        }
        // a '!' in the directory's own URI would make the first "!/" ambiguous: escape it
        return URI.create(SCHEME + ":" + base.toString().replace("!", "%21") + "!" + encodedPath);
    }

    /** The directory's URI of an ensemble URI. */
    static URI baseOf(URI uri) {
        checkScheme(uri);
        String ssp = uri.getRawSchemeSpecificPart();
        int sep = ssp.indexOf("!/");
        return URI.create(sep < 0 ? ssp : ssp.substring(0, sep));
    }

    /** The decoded path in the tree of an ensemble URI ("/" if it names none). */
    static String pathOf(URI uri) {
        checkScheme(uri);
        String ssp = uri.getRawSchemeSpecificPart();
        int sep = ssp.indexOf("!/");
        return sep < 0 ? "/" : URI.create(ssp.substring(sep + 1)).getPath();
    }

    private static void checkScheme(URI uri) {
        if (!SCHEME.equalsIgnoreCase(uri.getScheme())) {
            throw new IllegalArgumentException("not an " + SCHEME + ": URI: " + uri);
        }
    }
}
