package org.containerfs.gsd;

import org.containerfs.core.ContainerFileSystemProvider;

/** The {@code gsd:} scheme: registered in META-INF/services. */
public final class GsdFileSystemProvider extends ContainerFileSystemProvider {
    public GsdFileSystemProvider() {
        super(new GsdFormat());
    }
}
