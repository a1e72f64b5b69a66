package org.containerfs.fuse;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * When the daemon collects its heap: only after the mount went idle (no request for two checks) and the
 * committed heap grew by 32 MiB since the last time, then while collections shrink it (the serial collector
 * shrinks in steps), at most four in a row; never while requests come.
 */
class IdleCollectorTest {
    private static final long MIB = 1 << 20;

    /** A heap whose committed size grows by allocation and shrinks stepwise at each collection, to {@code live}. */
    private static final class FakeHeap implements IdleCollector.Heap {
        long committed = 16 * MIB;
        long live = 16 * MIB;
        int collections;
        int step; // 0 %, 10 %, 40 %, 100 % of the excess, as the serial collector's steps

        @Override
        public long committed() {
            return committed;
        }

        @Override
        public void collect() {
            collections++;
            int[] percent = {0, 10, 40, 100};
            committed -= (committed - live) * percent[Math.min(step++, 3)] / 100;
        }
    }

    private static IdleCollector collector(AtomicLong requests, FakeHeap heap) {
        MountLog log = new MountLog(new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8), false);
        return new IdleCollector(requests::get, heap, log);
    }

    @Test
    void collectsOnlyWhenIdleAfterGrowthAndWhileItShrinks() {
        AtomicLong requests = new AtomicLong();
        FakeHeap heap = new FakeHeap();
        IdleCollector c = collector(requests, heap);
        // a walk: requests every check, the heap growing to 400 MiB for 80 MiB live
        for (int i = 1; i <= 10; i++) {
            requests.addAndGet(1000);
            heap.committed += 38 * MIB;
            heap.live += 6 * MIB;
            assertThat(c.check()).as("busy").isZero();
        }
        assertThat(heap.collections).isZero();
        assertThat(c.check()).as("first idle check").isZero();
        assertThat(c.check()).as("second idle check: collections until the heap stops shrinking").isEqualTo(4);
        assertThat(heap.committed).isEqualTo(heap.live);
        // idle on: nothing more to give back
        for (int i = 0; i < 5; i++) {
            assertThat(c.check()).isZero();
        }
        assertThat(heap.collections).isEqualTo(4);
    }

    @Test
    void aSmallGrowthSteadyRequestsOrOneUnderWayCollectNothing() {
        AtomicLong requests = new AtomicLong();
        FakeHeap heap = new FakeHeap();
        IdleCollector c = collector(requests, heap);
        heap.committed += 31 * MIB; // below the threshold
        for (int i = 0; i < 5; i++) {
            assertThat(c.check()).isZero();
        }
        heap.committed += 100 * MIB;
        for (int i = 0; i < 20; i++) {
            requests.incrementAndGet(); // one request a check: never idle
            assertThat(c.check()).isZero();
        }
        requests.set(-1); // one long request under way (a listing of a million names): not idle either
        for (int i = 0; i < 5; i++) {
            assertThat(c.check()).isZero();
        }
        assertThat(heap.collections).isZero();
    }
}
