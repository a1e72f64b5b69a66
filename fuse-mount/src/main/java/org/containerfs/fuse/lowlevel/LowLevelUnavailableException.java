package org.containerfs.fuse.lowlevel;

/** The low-level engine cannot run with this libfuse (too old, incomplete, or native access disabled). */
public final class LowLevelUnavailableException extends Exception {
    public LowLevelUnavailableException(String message) {
        super(message);
    }

    public LowLevelUnavailableException(String message, Throwable cause) {
        super(message, cause);
    }
}
