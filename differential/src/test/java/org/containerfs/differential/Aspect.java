package org.containerfs.differential;

/** What a door can observe of a container; the comparison looks only at what both sides observe. */
enum Aspect {
    /** Directories appear as entries (Spark gives rows for files only). */
    DIRECTORIES,
    /** The listed size of every file. */
    SIZES,
    /** The bytes of every file (their SHA-256), or that they cannot be read. */
    CONTENT,
    /** A container that cannot be opened is told apart from an empty one (Spark skips it without a row). */
    REFUSAL
}
