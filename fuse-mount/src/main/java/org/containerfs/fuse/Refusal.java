package org.containerfs.fuse;

/**
 * An answer of a FUSE operation that is not an exception of the file system: a positive errno chosen
 * by the mount itself (EIO after a failed commit, EBUSY for a file still being written, EEXIST for a
 * staged name, ...). {@link ErrnoTable} answers it as it is and never logs it (whoever throws it logs
 * what needs a log line), so both engines answer what {@link Staging} decides.
 */
final class Refusal extends Exception {
    private static final long serialVersionUID = 1L;

    final int errno;

    Refusal(int errno) {
        super("errno " + errno, null, false, false);
        this.errno = errno;
    }
}
