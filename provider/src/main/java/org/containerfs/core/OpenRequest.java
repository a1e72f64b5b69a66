package org.containerfs.core;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.util.Map;
import org.containerfs.spi.FormatOptions;
import org.containerfs.storage.ContainerInput;

/**
 * What the caller of an open asked for, parsed once from its env: the format's options, whether to create the
 * container, whether to open it for writing, the format it named (or null), and whether it opened by URI (see
 * {@link FileSystemRegistry}).
 */
record OpenRequest(FormatOptions options, boolean create, boolean writable, String format, boolean byUri) {

    /** The request of an open by Path or by URI. */
    static OpenRequest of(Map<String, ?> env, boolean byUri) {
        FormatOptions options = new FormatOptions(env);
        boolean create = options.getBoolean("create", false);
        String accessMode = options.getString("accessMode", create ? "readWrite" : "readOnly");
        boolean writable;
        if (accessMode.equals("readWrite")) {
            writable = true;
        } else if (accessMode.equals("readOnly")) {
            writable = false;
        } else {
            throw new IllegalArgumentException("env accessMode must be readOnly or readWrite, got " + accessMode);
        }
        if (create && !writable) {
            throw new IllegalArgumentException("env create=true cannot be combined with accessMode=readOnly");
        }
        return new OpenRequest(options, create, writable, options.getString("format", null), byUri);
    }

    /** The request of an open of {@code input}: read-only, whatever env says, or refused. */
    static OpenRequest ofInput(ContainerInput input, Map<String, ?> env) throws IOException {
        FormatOptions options = new FormatOptions(env);
        boolean create = options.getBoolean("create", false);
        String accessMode = options.getString("accessMode", "readOnly");
        if (create || !accessMode.equals("readOnly")) {
            throw new AccessDeniedException(input.uri().toString(), null, (create ? "env create=true" :
                    "env accessMode=" + accessMode) + " refused: a container read through a ContainerInput is "
                    + "read-only (nothing is ever written to the store); copy it to a local file to append to it");
        }
        return new OpenRequest(options, false, false, options.getString("format", null), false);
    }
}
