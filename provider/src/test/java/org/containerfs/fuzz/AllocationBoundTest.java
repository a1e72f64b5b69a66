package org.containerfs.fuzz;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** The fuzz targets' allocation check must be able to fail, and must not fail on modest work. */
class AllocationBoundTest {
    private static volatile Object sink;

    @Test
    void anActionAllocatingMoreThanTheBoundIsAFinding() {
        assertThatThrownBy(() -> ContainerFuzzing.withinAllocationBound("hostile", 16, () -> {
            for (int i = 0; i < 80; i++) {
                sink = new byte[1 << 20]; // 80 MiB in total, garbage included
            }
        })).isInstanceOf(IllegalStateException.class).hasMessageContaining("hostile").hasMessageContaining("bound");
    }

    @Test
    void modestAllocationPasses() {
        assertThatCode(() -> ContainerFuzzing.withinAllocationBound("small", 16, () -> sink = new byte[1 << 20]))
                .doesNotThrowAnyException();
    }
}
