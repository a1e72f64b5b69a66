/**
 * Gzip below the formats: {@link org.containerfs.storage.gzip.GzipInput} is a
 * {@link org.containerfs.storage.ContainerInput} of a gzip file's decompressed bytes (one member or several),
 * with random access through {@link org.containerfs.storage.gzip.RestartIndex restart points} (zran style: a
 * deflate block boundary and the 32 KiB window before it, every span of output). The core puts it between the
 * stored bytes and format detection for any gzip file no format reads as it is, and keeps its restart points
 * in the index cache; G3's one-pass {@code .g3.gz} open uses the same classes. docs/compressed.md describes it.
 * The classes other than {@code GzipInput}, {@code RestartIndex} and {@code ReadOnlyCompressedException} are
 * public for that one use by the G3 format and are not a supported API.
 */
package org.containerfs.storage.gzip;
