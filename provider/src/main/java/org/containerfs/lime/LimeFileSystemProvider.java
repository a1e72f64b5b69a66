package org.containerfs.lime;

import org.containerfs.core.ContainerFileSystemProvider;

/** The {@code lime:} scheme: registered in META-INF/services. */
public final class LimeFileSystemProvider extends ContainerFileSystemProvider {
    public LimeFileSystemProvider() {
        super(new LimeFormat());
    }
}
