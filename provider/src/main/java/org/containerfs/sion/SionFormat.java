package org.containerfs.sion;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.AccessDeniedException;
import java.util.List;
import org.containerfs.spi.Container;
import org.containerfs.spi.ContainerFormat;
import org.containerfs.spi.ContainerSource;

/**
 * SIONlib task-local container files (Jülich): one tree per task, read without the C library.
 * Existing files open read-only; new files are written create-only (see {@link SionNewContainer}).
 */
public final class SionFormat implements ContainerFormat {

    @Override
    public String name() {
        return "sion";
    }

    @Override
    public List<String> fileExtensions() {
        return List.of("sion");
    }

    @Override
    public boolean probe(ByteBuffer head, String fileName) {
        // The magic alone: a wrong version or endianness word must reach open() and fail there with its own error.
        return head.remaining() >= 4 && SionFile.startsWithMagic(head);
    }

    @Override
    public Container open(ContainerSource source) throws IOException {
        if (source.writable()) {
            throw new AccessDeniedException(source.name(), null, "an existing SION file cannot be opened for "
                    + "writing: its META2 (block counts and used sizes) sits at the end of the file and META1 holds "
                    + "per-task arrays in front of the data, so adding or growing a task means rewriting the whole "
                    + "file; open it read-only, or write a new file with create=true on a path that does not exist");
        }
        return new SionContainer(source);
    }

    @Override
    public Container create(ContainerSource source) throws IOException {
        return SionNewContainer.create(source);
    }

    /** New files are assembled beside the target and renamed onto it on close: stage in a sibling. */
    @Override
    public String creationStagingName(String targetFileName) {
        return SionNewContainer.stagingName(targetFileName);
    }
}
