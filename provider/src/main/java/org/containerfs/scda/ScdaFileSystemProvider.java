package org.containerfs.scda;

import org.containerfs.core.ContainerFileSystemProvider;

/** The {@code scda:} scheme: registered in META-INF/services. */
public final class ScdaFileSystemProvider extends ContainerFileSystemProvider {
    public ScdaFileSystemProvider() {
        super(new ScdaFormat());
    }
}
