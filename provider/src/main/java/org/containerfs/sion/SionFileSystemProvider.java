package org.containerfs.sion;

import org.containerfs.core.ContainerFileSystemProvider;

/** The {@code sion:} scheme: registered in META-INF/services. */
public final class SionFileSystemProvider extends ContainerFileSystemProvider {
    public SionFileSystemProvider() {
        super(new SionFormat());
    }
}
