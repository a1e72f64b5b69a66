package org.containerfs.s3;

import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.DirectoryIteratorException;
import java.nio.file.DirectoryStream;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.concurrent.atomic.AtomicLong;
import org.containerfs.storage.BasicAttributes;
import org.containerfs.ensemble.TreeSource;
import org.containerfs.storage.ContainerInput;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.CommonPrefix;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Request;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Response;
import software.amazon.awssdk.services.s3.model.S3Object;

/**
 * An S3 prefix ({@code s3://bucket/run/}) as the files of a tree of containers: "/" in keys makes directories,
 * as the S3 console and {@code aws s3 ls} show them. A directory is listed with ListObjectsV2 and delimiter "/",
 * one page (up to 1,000 names) at a time as the listing is iterated; a file's bytes are read through
 * {@link S3ContainerInput}. A listed object is opened without a request, from the size and ETag its listing gave
 * (so a container whose persisted index was made for that ETag opens with no request at all, and an object
 * replaced since is listed with another ETag and scanned again); every read of it is a ranged GET with
 * {@code If-Match} on that ETag, so that an object replaced after the listing fails to read rather than being read
 * against an index of its former bytes. An object not in a kept listing is opened with one GET (its first bytes,
 * size and ETag).
 *
 * <p>What a listing says of each name (directory or object, size, Last-Modified, ETag) is kept per directory,
 * so that the attributes of a listed name cost no request: {@code ls -l} after a listing, and every step of a
 * path through listed directories. At most {@code s3.listCacheEntries} names are kept (default 100,000, about
 * 200 bytes each), least recently listed directories first out. A name missing from the kept listing is looked up
 * with one LIST of its own (an object added since shows up); a kept name whose object was deleted since fails
 * when it is opened. Every listing of a directory is a fresh LIST and replaces what was kept of it. Directories
 * have no times in S3: they show the time the source was opened.
 */
public final class S3TreeSource implements TreeSource {
    /** env key: the most listed names kept for attributes. */
    public static final String LIST_CACHE_ENTRIES = "s3.listCacheEntries";
    static final int DEFAULT_LIST_CACHE_ENTRIES = 100_000;
    /** env key: names asked for per LIST page (default 1,000, the most S3 gives). */
    public static final String LIST_PAGE_KEYS = "s3.listPageKeys";

    private final S3Client client;
    private final boolean ownsClient;
    private final String bucket;
    /** "" (the bucket's top) or a key prefix ending in "/". */
    private final String prefix;
    private final int openRead;
    private final int maxKept;
    private int pageKeys = 1000;
    private final URI uri;
    private final FileTime opened = FileTime.fromMillis(System.currentTimeMillis());
    private final AtomicLong listRequests = new AtomicLong();
    /** Directory key prefix to its last complete listing; access-ordered. Guarded by itself. */
    private final LinkedHashMap<String, Map<String, Listed>> kept = new LinkedHashMap<>(16, 0.75f, true);
    private long keptEntries;

    private S3TreeSource(S3Client client, boolean ownsClient, String bucket, String prefix, int openRead, int maxKept) {
        this.client = client;
        this.ownsClient = ownsClient;
        this.bucket = bucket;
        this.prefix = prefix;
        this.openRead = openRead;
        this.maxKept = maxKept;
        try {
            this.uri = new URI("s3", bucket, "/" + prefix, null);
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException("s3://" + bucket + "/" + prefix, e);
        }
    }

    /**
     * The prefix {@code s3://bucket/prefix/} (a trailing "/" is added when missing; {@code s3://bucket/} is the
     * whole bucket) through a client made from env ({@link S3Settings}) or env {@code s3.client}. One LIST
     * checks that the bucket answers and the prefix holds something: {@link NoSuchFileException} otherwise.
     */
    public static S3TreeSource open(URI s3Prefix, Map<String, ?> env) throws IOException {
        String scheme = s3Prefix.getScheme();
        if (scheme == null || !scheme.toLowerCase(Locale.ROOT).equals("s3")) {
            throw new IllegalArgumentException("not an s3:// URI: " + S3Location.redacted(s3Prefix));
        }
        if (s3Prefix.getRawUserInfo() != null) {
            S3Location.parse(s3Prefix); // refuses it, redacted
        }
        String bucket = s3Prefix.getHost() != null ? s3Prefix.getHost() : s3Prefix.getAuthority();
        if (bucket == null || bucket.isEmpty()) {
            throw new IllegalArgumentException("an S3 prefix is named s3://bucket/prefix/, not " + s3Prefix);
        }
        String path = s3Prefix.getPath() == null ? "" : s3Prefix.getPath();
        String prefix = path.startsWith("/") ? path.substring(1) : path;
        if (!prefix.isEmpty() && !prefix.endsWith("/")) {
            prefix += "/";
        }
        int maxKept = (int) Math.min(Integer.MAX_VALUE, longOption(env, LIST_CACHE_ENTRIES, DEFAULT_LIST_CACHE_ENTRIES));
        int openRead = S3Settings.openReadBytes(env);
        S3TreeSource source;
        if (env.get("s3.client") instanceof S3Client given) {
            source = new S3TreeSource(given, false, bucket, prefix, openRead, maxKept);
        } else {
            source = new S3TreeSource(S3Settings.from(env).newClient(), true, bucket, prefix, openRead, maxKept);
        }
        try {
            source.pageKeys = pageKeys(env);
            source.checkTop();
            return source;
        } catch (IOException | RuntimeException e) {
            source.close();
            throw e;
        }
    }

    /** A source over a client of the caller's, which stays open when the source is closed. */
    public static S3TreeSource open(S3Client client, String bucket, String prefix, Map<String, ?> env) throws IOException {
        String p = prefix.isEmpty() || prefix.endsWith("/") ? prefix : prefix + "/";
        S3TreeSource source = new S3TreeSource(client, false, bucket, p, S3Settings.openReadBytes(env),
                (int) Math.min(Integer.MAX_VALUE, longOption(env, LIST_CACHE_ENTRIES, DEFAULT_LIST_CACHE_ENTRIES)));
        source.pageKeys = pageKeys(env);
        source.checkTop();
        return source;
    }

    private static int pageKeys(Map<String, ?> env) {
        long n = longOption(env, LIST_PAGE_KEYS, 1000);
        if (n < 1 || n > 1000) {
            throw new IllegalArgumentException("env " + LIST_PAGE_KEYS + " must be between 1 and 1000, got " + n);
        }
        return (int) n;
    }

    private static long longOption(Map<String, ?> env, String key, long otherwise) {
        Object v = env.get(key);
        if (v == null) {
            return otherwise;
        }
        long n;
        try {
            n = v instanceof Number num ? num.longValue() : Long.parseLong(v.toString().trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("env " + key + " must be a number, got " + v, e);
        }
        if (n < 0) {
            throw new IllegalArgumentException("env " + key + " must not be negative, got " + n);
        }
        return n;
    }

    private void checkTop() throws IOException {
        ListObjectsV2Response first = listPage(prefix, null, 1);
        if (!prefix.isEmpty() && first.contents().isEmpty() && first.commonPrefixes().isEmpty()) {
            throw new NoSuchFileException(uri.toString(), null, "no object has a key starting with " + prefix
                    + " in bucket " + bucket);
        }
    }

    /** How many LIST requests this source sent. */
    public long listRequests() {
        return listRequests.get();
    }

    @Override
    public URI uri() {
        return uri;
    }

    private String dirKey(List<String> dir) {
        StringBuilder b = new StringBuilder(prefix);
        for (String name : dir) {
            b.append(name).append('/');
        }
        return b.toString();
    }

    private static void checkNames(List<String> path) throws NoSuchFileException {
        for (String name : path) {
            if (name.isEmpty() || name.contains("/") || name.equals(".") || name.equals("..")) {
                throw new NoSuchFileException(String.join("/", path), null, "not a name an S3 key can hold");
            }
        }
    }

    private S3Location location(String key) {
        return new S3Location(bucket, key.isEmpty() ? "/" : key);
    }

    private ListObjectsV2Response listPage(String keyPrefix, String token, int maxKeys) throws IOException {
        ListObjectsV2Request.Builder b = ListObjectsV2Request.builder().bucket(bucket).prefix(keyPrefix).delimiter("/");
        if (token != null) {
            b.continuationToken(token);
        }
        if (maxKeys > 0) {
            b.maxKeys(maxKeys);
        }
        listRequests.incrementAndGet();
        try {
            return client.listObjectsV2(b.build());
        } catch (SdkException e) {
            throw S3Errors.translate(e, location(keyPrefix), "listing keys under " + keyPrefix);
        }
    }

    @Override
    public BasicFileAttributes attributes(List<String> path, LinkOption... options) throws IOException {
        if (path.isEmpty()) {
            return directoryAttributes(opened);
        }
        checkNames(path);
        String dir = dirKey(path.subList(0, path.size() - 1));
        String name = path.get(path.size() - 1);
        synchronized (kept) {
            Map<String, Listed> listing = kept.get(dir);
            Listed a = listing == null ? null : listing.get(name);
            if (a != null) {
                return a.attributes();
            }
        }
        return lookUp(dir, name);
    }

    /** One name by a LIST of the keys that start with it: the object of that key, or a directory below it. */
    private BasicAttributes lookUp(String dir, String name) throws IOException {
        String key = dir + name;
        Listed file = null;
        String token = null;
        do {
            ListObjectsV2Response page = listPage(key, token, pageKeys);
            for (CommonPrefix p : page.commonPrefixes()) {
                if (p.prefix().equals(key + "/")) {
                    BasicAttributes directory = directoryAttributes(opened); // a directory wins over an object of that name
                    keepPage(dir, Map.of(name, new Listed(directory, null)));
                    return directory;
                }
            }
            for (S3Object o : page.contents()) {
                if (o.key().equals(key)) {
                    file = listed(o);
                }
            }
            token = Boolean.TRUE.equals(page.isTruncated()) ? page.nextContinuationToken() : null;
        } while (token != null);
        if (file == null) {
            throw new NoSuchFileException(location(key).toString());
        }
        keepPage(dir, Map.of(name, file)); // the next question about it costs nothing
        return file.attributes();
    }

    @Override
    public DirectoryStream<String> list(List<String> dir) throws IOException {
        checkNames(dir);
        String key = dirKey(dir);
        ListObjectsV2Response first = listPage(key, null, pageKeys);
        if (!dir.isEmpty() && first.contents().isEmpty() && first.commonPrefixes().isEmpty()) {
            // nothing below: a file of that name, or nothing at all
            BasicFileAttributes a = attributes(dir);
            if (!a.isDirectory()) {
                throw new NotDirectoryException(location(key.substring(0, key.length() - 1)).toString());
            }
        }
        return new Listing(key, first);
    }

    /** One directory's names, page by page; what it saw is kept once it has seen all (see the class comment). */
    private final class Listing implements DirectoryStream<String> {
        private final String key;
        private ListObjectsV2Response page;
        private final Map<String, Listed> seen = new HashMap<>();
        private boolean iterated;
        private volatile boolean closed;

        Listing(String key, ListObjectsV2Response first) {
            this.key = key;
            this.page = first;
        }

        @Override
        public Iterator<String> iterator() {
            if (closed) {
                throw new IllegalStateException("the directory stream is closed");
            }
            if (iterated) {
                throw new IllegalStateException("a directory stream gives one iterator");
            }
            iterated = true;
            return new Iterator<>() {
                private final List<String> names = new ArrayList<>();
                private int at;
                private boolean done;
                private boolean pageTaken;

                @Override
                public boolean hasNext() {
                    while (at >= names.size() && !done && !closed) {
                        try {
                            nextPage();
                        } catch (IOException e) {
                            throw new DirectoryIteratorException(e);
                        }
                    }
                    return at < names.size() && !closed;
                }

                private void nextPage() throws IOException {
                    if (pageTaken) {
                        String token = Boolean.TRUE.equals(page.isTruncated()) ? page.nextContinuationToken() : null;
                        if (token == null) {
                            done = true;
                            keep(key, seen);
                            return;
                        }
                        page = listPage(key, token, pageKeys);
                    }
                    pageTaken = true;
                    names.clear();
                    at = 0;
                    Map<String, Listed> thisPage = new HashMap<>();
                    // both lists are in key order; merged so that the names come out sorted
                    List<S3Object> objects = page.contents();
                    List<CommonPrefix> dirs = page.commonPrefixes();
                    int i = 0;
                    int j = 0;
                    while (i < objects.size() || j < dirs.size()) {
                        boolean takeObject = j >= dirs.size()
                                || (i < objects.size() && objects.get(i).key().compareTo(dirs.get(j).prefix()) < 0);
                        if (takeObject) {
                            S3Object o = objects.get(i++);
                            add(o.key().substring(key.length()), listed(o), thisPage);
                        } else {
                            String p = dirs.get(j++).prefix();
                            add(p.substring(key.length(), p.length() - 1), new Listed(directoryAttributes(opened), null), thisPage);
                        }
                    }
                    // a walk asks each name's attributes as it comes, before the listing is complete: kept at once
                    keepPage(key, thisPage);
                }

                private void add(String name, Listed a, Map<String, Listed> thisPage) {
                    if (name.isEmpty() || name.contains("/") || name.equals(".") || name.equals("..")) {
                        return; // the directory's own marker object, or a key no tree can name
                    }
                    Listed before = seen.putIfAbsent(name, a);
                    if (before == null) {
                        names.add(name);
                        thisPage.put(name, a);
                    } else if (a.attributes().isDirectory()) {
                        seen.put(name, a); // an object and a directory of the same name: the directory wins
                        thisPage.put(name, a);
                    }
                }

                @Override
                public String next() {
                    if (!hasNext()) {
                        throw new NoSuchElementException();
                    }
                    return names.get(at++);
                }
            };
        }

        @Override
        public void close() {
            closed = true;
        }
    }

    /**
     * Keeps a complete listing in place of what was kept of the directory (names deleted since go), dropping the
     * least recently used directories beyond the bound on names.
     */
    private void keep(String dir, Map<String, Listed> listing) {
        synchronized (kept) {
            Map<String, Listed> before = kept.remove(dir);
            keptEntries -= before == null ? 0 : before.size();
            if (listing.size() <= maxKept) {
                kept.put(dir, new HashMap<>(listing));
                keptEntries += listing.size();
            }
            trim(dir);
        }
    }

    /** Adds one page of a listing under way to what is kept of the directory. */
    private void keepPage(String dir, Map<String, Listed> page) {
        synchronized (kept) {
            Map<String, Listed> listing = kept.computeIfAbsent(dir, d -> new HashMap<>());
            int before = listing.size();
            listing.putAll(page);
            keptEntries += listing.size() - before;
            if (listing.size() > maxKept) { // one directory larger than the bound: not kept at all
                kept.remove(dir);
                keptEntries -= listing.size();
            }
            trim(dir);
        }
    }

    /** Drops the least recently used directories (never {@code dir}) while more than the bound are kept. Under the lock. */
    private void trim(String dir) {
        Iterator<Map.Entry<String, Map<String, Listed>>> it = kept.entrySet().iterator();
        while (keptEntries > maxKept && it.hasNext()) {
            Map.Entry<String, Map<String, Listed>> e = it.next();
            if (!e.getKey().equals(dir)) {
                keptEntries -= e.getValue().size();
                it.remove();
            }
        }
    }

    /** Names kept from listings now (for tests and the bench). */
    public long keptNames() {
        synchronized (kept) {
            return keptEntries;
        }
    }

    @Override
    public ContainerInput input(List<String> file) throws IOException {
        checkNames(file);
        if (file.isEmpty()) {
            throw new NoSuchFileException(uri.toString(), null, "a prefix, not an object");
        }
        String dir = dirKey(file.subList(0, file.size() - 1));
        String key = dir + file.get(file.size() - 1);
        Listed listed;
        synchronized (kept) {
            Map<String, Listed> listing = kept.get(dir);
            listed = listing == null ? null : listing.get(file.get(file.size() - 1));
        }
        BasicAttributes a = listed == null ? null : listed.attributes();
        if (a != null && a.isRegularFile() && a.size() == 0) {
            // an empty object has no byte to GET (a ranged GET is refused with 416): nothing to ask
            return S3ContainerInput.empty(client, new S3Location(bucket, key), openRead, a.lastModifiedTime());
        }
        if (a != null && a.isRegularFile() && listed.etag() != null && !listed.etag().isEmpty()) {
            // size and ETag as listed: no request now; the first read is a GET with If-Match on that ETag
            return S3ContainerInput.listed(client, new S3Location(bucket, key), openRead, a.size(), listed.etag(),
                    a.lastModifiedTime());
        }
        return S3ContainerInput.open(client, new S3Location(bucket, key), openRead);
    }

    @Override
    public void close() {
        if (ownsClient) {
            client.close();
        }
    }

    @Override
    public String toString() {
        return uri.toString();
    }

    /** What a listing says of an object: its size and Last-Modified, and its ETag. */
    private static Listed listed(S3Object o) {
        return new Listed(new BasicAttributes(false, o.size() == null ? 0 : o.size(),
                o.lastModified() == null ? FileTime.fromMillis(0) : FileTime.from(o.lastModified())), o.eTag());
    }

    /** One listed name: its attributes, and for an object the ETag the listing gave (null for a directory). */
    private record Listed(BasicAttributes attributes, String etag) {}

    /** A "directory" of the listing: it carries the source's open time. */
    private static BasicAttributes directoryAttributes(FileTime time) {
        return new BasicAttributes(true, 0, time);
    }
}
