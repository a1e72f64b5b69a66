package org.containerfs.fuse;

import java.util.Map;
import java.util.TreeMap;
import java.util.function.Supplier;

/** Request counters of a mount (either engine's), read in tests. */
final class RequestCounts {
    private RequestCounts() {}

    /**
     * The counts once every directory opened has been released (RELEASEDIR arrives after close() has
     * returned to the caller) and nothing changed for 20 ms; after one second the counts as they are.
     */
    static <K extends Enum<K>> Map<K, Long> settled(Supplier<Map<K, Long>> counts, K open, K release)
            throws InterruptedException {
        Map<K, Long> last = counts.get();
        for (int i = 0; i < 50; i++) {
            Thread.sleep(20);
            Map<K, Long> again = counts.get();
            if (again.equals(last) && again.getOrDefault(open, 0L).equals(again.getOrDefault(release, 0L))) {
                return again;
            }
            last = again;
        }
        return last;
    }

    /** {@code after - before} per key, zeros left out. */
    static <K extends Enum<K>> Map<K, Long> minus(Map<K, Long> after, Map<K, Long> before) {
        Map<K, Long> d = new TreeMap<>();
        after.forEach((op, n) -> {
            long v = n - before.getOrDefault(op, 0L);
            if (v != 0) {
                d.put(op, v);
            }
        });
        return d;
    }
}
