package org.containerfs.tools;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * The open path's figure, reproducible: {@code mvn -B -o -q -pl provider test -Dtest=OpenPathTraceTest} prints, per
 * kind of open, the files it passes and its returns to files already left (see {@link OpenPathTrace}).
 */
class OpenPathTraceTest {

    @Test
    void aPathOpenOfALimeFile() throws Exception {
        OpenPathTrace.Trace trace = OpenPathTrace.trace("lime");
        System.out.println(trace.summary());
        assertThat(trace.visits()).contains("core/ContainerFileSystemProvider.java", "lime/LimeFormat.java");
    }

    @Test
    void aPathOpenOfAGzipFile() throws Exception {
        OpenPathTrace.Trace trace = OpenPathTrace.trace("gz");
        System.out.println(trace.summary());
        assertThat(trace.visits()).contains("core/Decompression.java", "lime/LimeFormat.java");
    }

    @Test
    void anInputOpen() throws Exception {
        OpenPathTrace.Trace trace = OpenPathTrace.trace("input");
        System.out.println(trace.summary());
        assertThat(trace.visits()).contains("core/BlockCachedInput.java", "lime/LimeFormat.java");
    }
}
