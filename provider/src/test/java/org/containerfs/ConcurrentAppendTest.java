package org.containerfs;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.FileSystem;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Eight reader threads and one appender on one writable file system, for every format that appends:
 * each read of a committed unit (whole or from a random position) must give its exact bytes, and every
 * listing must show every unit committed before it started, while the tree grows under the readers.
 */
class ConcurrentAppendTest {
    private static final long APPEND_MILLIS = 2000;
    private static final int MAX_BYTES = 3000;
    private static final int READERS = 8;
    private static final int FIRST_UNITS = 20;
    private static final int MIN_CHECKS_PER_READER = 50;

    @TempDir
    Path tmp;

    @ParameterizedTest
    @EnumSource(AppendableFormat.class)
    void eightReadersAndOneAppenderOnOneFileSystem(AppendableFormat format) throws Exception {
        Path file = tmp.resolve("busy." + format.format);
        int units;
        try (FileSystem fs = format.create(file)) {
            AtomicInteger committed = new AtomicInteger(); // units 0 .. committed-1 have been committed
            for (int i = 0; i < FIRST_UNITS; i++) {
                format.append(fs, i, MAX_BYTES);
                committed.set(i + 1);
            }
            AtomicBoolean stop = new AtomicBoolean();
            ExecutorService pool = Executors.newFixedThreadPool(READERS + 1);
            try {
                List<Future<Integer>> readers = new ArrayList<>();
                for (int t = 0; t < READERS; t++) {
                    Random random = new Random(t);
                    readers.add(pool.submit(() -> {
                        int checks = 0;
                        while (!stop.get() || checks < MIN_CHECKS_PER_READER) {
                            format.check(fs, random.nextInt(committed.get()), MAX_BYTES, random);
                            if (checks % 4 == 0) {
                                int before = committed.get();
                                List<Integer> listed = format.listUnits(fs);
                                // the unit being appended may be listed too (staged frames and sections are)
                                assertThat(listed).as("%s: listing order is unit order", format)
                                        .isEqualTo(IntStream.range(0, listed.size()).boxed().collect(Collectors.toList()));
                                assertThat(listed.size()).as("%s: units listed", format)
                                        .isBetween(before, committed.get() + 1);
                            }
                            checks++;
                        }
                        return checks;
                    }));
                }
                Future<Integer> appender = pool.submit(() -> {
                    long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(APPEND_MILLIS);
                    int i = committed.get();
                    while (System.nanoTime() < end) {
                        format.append(fs, i, MAX_BYTES);
                        committed.set(++i);
                    }
                    return i;
                });
                units = appender.get(60, TimeUnit.SECONDS);
                stop.set(true);
                long checks = 0;
                for (Future<Integer> r : readers) {
                    int c = r.get(60, TimeUnit.SECONDS);
                    assertThat(c).isGreaterThanOrEqualTo(MIN_CHECKS_PER_READER);
                    checks += c;
                }
                System.out.printf("concurrent-append %s: %d units appended, %d unit checks by %d readers%n",
                        format.format, units, checks, READERS);
            } finally {
                stop.set(true);
                pool.shutdownNow();
            }
            assertThat(units).as("%s: units appended while the readers read", format).isGreaterThan(FIRST_UNITS);
        }
        // what the readers saw is what the file holds
        try (FileSystem fs = format.openReadOnly(file)) {
            assertThat(format.listUnits(fs)).hasSize(units);
            Random random = new Random(units);
            for (int i = 0; i < units; i++) {
                format.check(fs, i, MAX_BYTES, random);
            }
        }
    }
}
