package org.containerfs.spark;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.BlockLocation;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.GlobFilter;
import org.apache.hadoop.fs.LocatedFileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RemoteIterator;
import org.containerfs.hadoop.HadoopContainerInput;

/**
 * Planning on the driver, with Hadoop's {@link FileSystem} and the user's configuration (so {@code file:},
 * {@code hdfs:}, {@code s3a:}, {@code abfs:}, {@code gs:} all work): lists the files under the load paths
 * (metadata only, no container is opened here), drops those the pushed container filters exclude, and packs
 * them into partitions the way Spark's file sources do: a container larger than the split size is cut into
 * record ranges, smaller ones are packed together, each costing its length plus an open cost.
 */
final class ContainerPlanner {
    private ContainerPlanner() {}

    /**
     * A file to read, with what planning learnt of it.
     *
     * @param firstFileInLoad see {@link ContainerSlice#firstFileInLoad()}
     */
    record Listed(FileStatus status, String container, String[] hosts, boolean firstFileInLoad) {}

    /** A file found under the load paths, before the container filters. */
    private record Found(FileSystem fs, FileStatus status) {}

    /** How SIONlib names the members of a multi-file set: the first file's name, a dot, the file number (%06d). */
    private static final Pattern SION_MEMBER = Pattern.compile("(.+)\\.(\\d{6,})");

    static List<Listed> list(ReadOptions options, Configuration conf, RecordFilter containerFilter) throws IOException {
        GlobFilter nameFilter = options.pathGlobFilter == null ? null : new GlobFilter(options.pathGlobFilter);
        // keyed by the container's URI: a file reached by two load paths (a directory and a glob) is read once
        Map<String, Found> found = new LinkedHashMap<>();
        for (String given : options.paths) {
            Path path = new Path(given);
            FileSystem fs = path.getFileSystem(conf);
            FileStatus[] matches = fs.globStatus(path);
            if (matches == null || matches.length == 0) {
                throw new FileNotFoundException("containerfs: path does not exist: " + fs.makeQualified(path));
            }
            for (FileStatus match : matches) {
                if (match.isDirectory()) {
                    listDirectory(fs, match.getPath(), options.recursiveFileLookup, nameFilter, found);
                } else {
                    add(fs, match, nameFilter, found);
                }
            }
        }
        // which files are members of a set whose first file is also read is decided on all files found, so that
        // a filter on `container` cannot turn a member back into a container of its own
        List<Listed> out = new ArrayList<>();
        for (Map.Entry<String, Found> e : found.entrySet()) {
            if (containerFilter.accepts(new ContainerOnly(e.getKey()))) {
                Found f = e.getValue();
                out.add(new Listed(f.status(), e.getKey(), hosts(f.fs(), f.status()),
                        firstFileInLoad(f, found.keySet())));
            }
        }
        out.sort(Comparator.comparing(Listed::container));
        return out;
    }

    private static void listDirectory(FileSystem fs, Path dir, boolean recursive, GlobFilter nameFilter,
            Map<String, Found> found) throws IOException {
        // Located listings carry block hosts (one request on HDFS); on the local file system they also load each
        // file's permissions, which without Hadoop's native library forks `ls` once per file: plain listing there.
        RemoteIterator<? extends FileStatus> it = "file".equals(fs.getScheme())
                ? fs.listStatusIterator(dir) : fs.listLocatedStatus(dir);
        while (it.hasNext()) {
            FileStatus status = it.next();
            if (hidden(status.getPath().getName())) {
                continue;
            }
            if (status.isDirectory()) {
                if (recursive) {
                    listDirectory(fs, status.getPath(), true, nameFilter, found);
                }
            } else {
                add(fs, status, nameFilter, found);
            }
        }
    }

    /** Spark's file sources skip these too: {@code _SUCCESS}, {@code .crc} side files, {@code _temporary}. */
    private static boolean hidden(String name) {
        return name.startsWith("_") || name.startsWith(".") || name.endsWith(".crc");
    }

    private static void add(FileSystem fs, FileStatus status, GlobFilter nameFilter, Map<String, Found> found) {
        if (!status.isFile() || (nameFilter != null && !nameFilter.accept(status.getPath()))) {
            return;
        }
        found.putIfAbsent(HadoopContainerInput.uriOf(fs, status.getPath()).toString(), new Found(fs, status));
    }

    /**
     * Whether {@code f} is named as a member of a SIONlib set ({@code x.sion.000001}) whose first file
     * ({@code x.sion}, beside it) is among the files read. Only the name is looked at here (planning opens
     * nothing); the task confirms from the file's own header that it is such a member before leaving it out.
     */
    private static boolean firstFileInLoad(Found f, Set<String> containers) {
        Path path = f.status().getPath();
        Matcher member = SION_MEMBER.matcher(path.getName());
        if (!member.matches() || member.group(2).matches("0+") || path.getParent() == null) {
            return false;
        }
        Path first = new Path(path.getParent(), member.group(1));
        return containers.contains(HadoopContainerInput.uriOf(f.fs(), first).toString());
    }

    private static String[] hosts(FileSystem fs, FileStatus status) throws IOException {
        if ("file".equals(fs.getScheme())) {
            return new String[0];     // one machine: no locality to prefer (and no scheduling delay waiting for it)
        }
        BlockLocation[] blocks = status instanceof LocatedFileStatus located ? located.getBlockLocations() : null;
        if (blocks == null || blocks.length == 0) {
            return new String[0];
        }
        Set<String> hosts = new LinkedHashSet<>();
        for (String host : blocks[0].getHosts()) {
            if (!host.equals("localhost")) {
                hosts.add(host);
            }
        }
        return hosts.toArray(new String[0]);
    }

    /**
     * Packs the containers into partitions. The split size is Spark's: at most {@code maxPartitionBytes}, at
     * least the open cost, and otherwise the total divided so that every core gets work; here the partition
     * count is also rounded up to a multiple of the cores, so that equal containers keep all cores busy to the
     * end. A container larger than the split size becomes {@code ceil(length / split)} record ranges.
     */
    static List<ContainerPartition> partitions(List<Listed> files, ReadOptions options, int parallelism) {
        long openCost = options.openCostInBytes;
        long total = 0;
        for (Listed f : files) {
            total += f.status().getLen() + openCost;
        }
        int cores = Math.max(1, parallelism);
        long byMax = Math.max(1, ceilDiv(total, options.maxPartitionBytes));
        long count = ceilDiv(Math.max(byMax, cores), cores) * cores;
        long split = Math.min(options.maxPartitionBytes, Math.max(openCost, ceilDiv(total, count)));

        record Piece(ContainerSlice slice, long cost, String[] hosts) {}
        List<Piece> pieces = new ArrayList<>();
        for (Listed f : files) {
            long length = f.status().getLen();
            int slices = (int) Math.min(Integer.MAX_VALUE, Math.max(1, ceilDiv(length, split)));
            for (int i = 0; i < slices; i++) {
                pieces.add(new Piece(new ContainerSlice(f.status().getPath().toString(), f.container(), length,
                        f.status().getModificationTime(), i, slices, f.firstFileInLoad()), length / slices + openCost,
                        f.hosts()));
            }
        }
        // Spark's packing: largest first, each into the current partition while it fits
        pieces.sort(Comparator.comparingLong(Piece::cost).reversed());
        List<ContainerPartition> out = new ArrayList<>();
        List<ContainerSlice> current = new ArrayList<>();
        Set<String> hosts = new LinkedHashSet<>();
        long size = 0;
        for (Piece p : pieces) {
            if (!current.isEmpty() && size + p.cost() > split) {
                out.add(new ContainerPartition(List.copyOf(current), hosts.toArray(new String[0])));
                current.clear();
                hosts.clear();
                size = 0;
            }
            current.add(p.slice());
            hosts.addAll(List.of(p.hosts()));
            size += p.cost();
        }
        if (!current.isEmpty()) {
            out.add(new ContainerPartition(List.copyOf(current), hosts.toArray(new String[0])));
        }
        return out;
    }

    private static long ceilDiv(long a, long b) {
        return -Math.floorDiv(-a, b);
    }

    /** A record of which only the container is known (planning). */
    private record ContainerOnly(String container) implements RecordFilter.Record {
        @Override
        public String path() {
            throw new IllegalStateException("planning filters look at the container only");
        }

        @Override
        public String format() {
            throw new IllegalStateException("planning filters look at the container only");
        }

        @Override
        public long size() {
            throw new IllegalStateException("planning filters look at the container only");
        }
    }
}
