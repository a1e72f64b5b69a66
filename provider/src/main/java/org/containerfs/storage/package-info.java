/**
 * Where a container's bytes come from. {@link org.containerfs.storage.ContainerInput} is the public
 * read interface that storage modules (S3, Hadoop) implement; the core opens a container from it with
 * {@code ContainerFileSystems.open(input, env)}, read-only, and formats never learn where bytes live.
 */
package org.containerfs.storage;
