package org.containerfs.fuse;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.containerfs.fuse.MountCommand.Engine;
import org.containerfs.fuse.lowlevel.LowLevelUnavailableException;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * Which engine {@code mount} takes ({@link MountCommand#mount(Engine, MountCommand.Mounter, PrintStream, boolean)}):
 * the low-level one unless another is named; the high-level one, said in one line on stderr, when this libfuse
 * cannot run the low-level engine and none was named; a named engine that cannot run is refused as it is.
 * The engines are stand-ins here (no libfuse older than 3.5 is at hand); the real ones are mounted elsewhere.
 */
class EngineFallbackTest {
    private final List<Engine> tried = new ArrayList<>();
    private final ByteArrayOutputStream errBytes = new ByteArrayOutputStream();
    private final PrintStream err = new PrintStream(errBytes, true, StandardCharsets.UTF_8);

    /** A stand-in engine: the low-level one refused as {@code LowLevelMount} refuses an old libfuse. */
    private MountedSession mountWithOldLibfuse(Engine engine) throws FuseUnavailableException {
        tried.add(engine);
        if (engine == Engine.lowlevel) {
            LowLevelUnavailableException why = new LowLevelUnavailableException("/usr/lib/libfuse3.so.3 is libfuse "
                    + "3.4.1 (API 34): the low-level engine needs libfuse 3.5 or newer");
            throw new FuseUnavailableException(why.getMessage(), why);
        }
        return new Stub();
    }

    private String err() {
        return errBytes.toString(StandardCharsets.UTF_8);
    }

    @Test
    void theDefaultIsTheLowLevelEngine() throws Exception {
        MountCommand command = new MountCommand();
        new CommandLine(command).parseArgs("a.lime", "mnt");
        assertThat(command.engine).as("not named").isNull();
        MountedSession s = MountCommand.mount(command.engine, e -> {
            tried.add(e);
            return new Stub();
        }, err, false);
        assertThat(s).isInstanceOf(Stub.class);
        assertThat(tried).containsExactly(Engine.lowlevel);
        assertThat(err()).isEmpty();
    }

    @Test
    void tooOldALibfuseFallsBackToTheHighLevelEngineAndSaysWhy() throws Exception {
        MountedSession s = MountCommand.mount(null, this::mountWithOldLibfuse, err, false);
        assertThat(s).isInstanceOf(Stub.class);
        assertThat(tried).containsExactly(Engine.lowlevel, Engine.highlevel);
        assertThat(err().lines().toList()).as(err()).hasSize(1);
        assertThat(err()).startsWith("containerfs mount: the low-level engine cannot run (")
                .contains("libfuse 3.4.1").contains("high-level engine (jfuse)");
    }

    @Test
    void aNamedLowLevelEngineIsRefusedWithTheVersionNotReplaced() {
        assertThatThrownBy(() -> MountCommand.mount(Engine.lowlevel, this::mountWithOldLibfuse, err, false))
                .isInstanceOf(FuseUnavailableException.class).hasMessageContaining("libfuse 3.4.1");
        assertThat(tried).containsExactly(Engine.lowlevel);
        assertThat(err()).isEmpty();
    }

    @Test
    void otherReasonsNotToMountAreNotFallenBackFrom() {
        assertThatThrownBy(() -> MountCommand.mount(null, e -> {
            tried.add(e);
            throw new FuseUnavailableException("/dev/fuse does not exist");
        }, err, false)).isInstanceOf(FuseUnavailableException.class).hasMessage("/dev/fuse does not exist");
        assertThatThrownBy(() -> MountCommand.mount(null, e -> {
            tried.add(e);
            throw new IOException("mount point /x is not empty");
        }, err, false)).isInstanceOf(IOException.class);
        assertThat(tried).containsExactly(Engine.lowlevel, Engine.lowlevel);
        assertThat(err()).isEmpty();
    }

    @Test
    void aNamedHighLevelEngineIsTheOnlyOneTried() throws Exception {
        MountCommand command = new MountCommand();
        new CommandLine(command).parseArgs("--engine=highlevel", "a.lime", "mnt");
        MountCommand.mount(command.engine, this::mountWithOldLibfuse, err, false);
        assertThat(tried).containsExactly(Engine.highlevel);
    }

    private static final class Stub implements MountedSession {
        @Override
        public Path mountPoint() {
            return Path.of("/mnt");
        }

        @Override
        public boolean ended() {
            return true;
        }

        @Override
        public boolean awaitEnd(Duration timeout) {
            return true;
        }

        @Override
        public boolean unmount(Duration grace) {
            return true;
        }

        @Override
        public void close() {
        }
    }
}
