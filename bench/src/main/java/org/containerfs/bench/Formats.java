package org.containerfs.bench;

import org.containerfs.core.ContainerFileSystemProvider;
import org.containerfs.core.ContainerFileSystems;

/** Which formats this build has: a format's scenarios run only when its provider is installed. */
final class Formats {
    private Formats() {}

    /** Null if a provider for {@code format} is installed, else the reason to skip. */
    static String missing(String format) {
        for (ContainerFileSystemProvider p : ContainerFileSystems.providers()) {
            if (p.getScheme().equalsIgnoreCase(format)) {
                return null;
            }
        }
        return "no " + format + " provider in this build";
    }
}
