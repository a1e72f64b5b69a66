package org.containerfs.g3;

import org.containerfs.core.ContainerFileSystemProvider;

/** The {@code g3:} scheme: registered in META-INF/services. */
public final class G3FileSystemProvider extends ContainerFileSystemProvider {
    public G3FileSystemProvider() {
        super(new G3Format());
    }
}
