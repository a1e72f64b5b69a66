/**
 * SIONlib (Jülich) task-local container files as file systems: scheme {@code sion}, attribute view
 * {@code sion}.
 *
 * <p>Reading: {@code /taskNNNNNN} holds a task's logical stream (what {@code sionsplit} extracts); a
 * multi-file set opened by its first file is one tree. env {@code chunks=true}:
 * {@code /taskNNNNNN/chunkNNNNNN}; env {@code recover=true}: open a file whose writer died before
 * close. Key-value (INLINE) files: {@code /taskNNNNNN/stream} and {@code /taskNNNNNN/key-<key>}.
 * Existing files are never opened for writing (META2 at the end: editing means rewriting).
 *
 * <p>Writing (create-only): {@code newFileSystem(path, {create=true, blockSize=N})} on a path that
 * does not exist; write {@code /task000000}, {@code /task000001}, ... (attribute
 * {@code sion:globalRank}); env {@code prefix} sets the stored file name, {@code endianness} the
 * user-data label, {@code sync=false} skips the fsync. The file appears when the file system closes.
 */
package org.containerfs.sion;
