package org.containerfs.differential;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.fail;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicContainer;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every door, one answer: for every corpus file of every format and its generated damaged variants
 * ({@link Inputs}, {@link Damage}), each {@link Door} must give the answer of the reference, the provider
 * walked through java.nio ({@link NioDoor}), as far as the door can see ({@link Aspect}). One dynamic test
 * per door and input; a failure names the door, the input and the first differing path
 * ({@link Comparison}). Spark also gets {@code count()} and the {@code container} column checked per format.
 */
class EveryDoorOneAnswerTest {
    @TempDir
    static Path work;

    static Map<String, List<Input>> inputs;
    static final NioDoor REFERENCE = new NioDoor();
    static final Map<Input, Answer> references = new ConcurrentHashMap<>();
    static final List<Door> doors = new ArrayList<>();
    static SparkSession spark;
    /**
     * Milliseconds spent in each door (summed over the threads that work ahead), printed at the end: the
     * module's time budget is watched with it.
     */
    static final Map<String, Long> millis = new ConcurrentHashMap<>();

    @BeforeAll
    static void generateInputsAndOpenDoors() throws Exception {
        inputs = Inputs.generate(Inputs.corpus(), work.resolve("inputs"));
        spark = SparkDoor.localSession();
        doors.add(new CliDoor());
        String noFuse = MountDoor.unavailableReason();
        if (noFuse == null) {
            doors.add(new MountDoor(work));
        } else if (System.getenv("CI") != null) {
            fail("FUSE is required in CI but not available: " + noFuse);
        } else {
            System.err.println("differential: no mount door on this machine (CI unset): " + noFuse);
        }
        doors.add(new S3Door(work.resolve("inputs")));
        doors.add(new HadoopDoor());
        doors.add(new GzipDoor(work));
        doors.add(new EnsembleDoor(work.resolve("inputs")));
        doors.add(SparkDoor.listing(spark));
        doors.add(SparkDoor.content(spark));
    }

    @AfterAll
    static void closeDoors() throws Exception {
        for (Door door : doors) {
            door.close();
        }
        if (spark != null) {
            spark.stop();
        }
        long cpuMillis = ((com.sun.management.OperatingSystemMXBean) java.lang.management.ManagementFactory
                .getOperatingSystemMXBean()).getProcessCpuTime() / 1_000_000;
        System.out.println("differential: inputs per format " + counts() + "; milliseconds per door " + millis
                + "; CPU time of the test JVM " + cpuMillis + " ms");
    }

    private static Map<String, Integer> counts() {
        Map<String, Integer> counts = new LinkedHashMap<>();
        inputs.forEach((format, list) -> counts.put(format, list.size()));
        return counts;
    }

    static Answer reference(Input input) {
        return references.computeIfAbsent(input, i -> timed("nio", () -> REFERENCE.answer(i)));
    }

    @TestFactory
    Stream<DynamicNode> theReferenceReadsEveryReadableFileWhole() {
        List<DynamicNode> formats = new ArrayList<>();
        inputs.forEach((format, list) -> formats.add(DynamicContainer.dynamicContainer(format,
                list.stream().map(input -> DynamicTest.dynamicTest(input.fileName(), () -> {
                    // a file read without error gives exactly its listed size; the other doors are compared with this
                    reference(input).entries().forEach((path, e) -> {
                        if (e.type() == Answer.Type.FILE) {
                            assertThat(e.content()).as("nio read of %s in %s", path, input).doesNotContain(" bytes, not ");
                        }
                    });
                })))));
        return formats.stream();
    }

    @TestFactory
    Stream<DynamicNode> everyDoorGivesTheReferencesAnswer() {
        List<DynamicNode> perDoor = new ArrayList<>();
        for (Door door : doors) {
            List<DynamicNode> perFormat = new ArrayList<>();
            inputs.forEach((format, list) -> {
                Map<Input, Answer> wholeFormat = new ConcurrentHashMap<>();
                List<Input> selected = door.select(list);
                Ahead<Answer> ahead = new Ahead<>(selected, input -> timed(door.name(), () -> door.answer(input)));
                List<DynamicTest> tests = new ArrayList<>();
                for (Input input : selected) {
                    tests.add(DynamicTest.dynamicTest(input.fileName(), () -> {
                        Answer answer;
                        if (door instanceof SparkDoor) {
                            // one load per format: the first test of the format makes it for all
                            synchronized (wholeFormat) {
                                if (wholeFormat.isEmpty()) {
                                    wholeFormat.putAll(timed(door.name(), () -> door.answers(list)));
                                }
                            }
                            answer = wholeFormat.get(input);
                        } else if (door.concurrent()) {
                            answer = ahead.get(input);
                        } else {
                            answer = timed(door.name(), () -> door.answer(input));
                        }
                        String difference = Comparison.difference(door.name(), input, reference(input), answer,
                                door.aspects());
                        if (difference != null) {
                            fail(difference);
                        }
                    }));
                }
                perFormat.add(DynamicContainer.dynamicContainer(format, tests));
            });
            perDoor.add(DynamicContainer.dynamicContainer(door.name(), perFormat));
        }
        return perDoor.stream();
    }

    @TestFactory
    Stream<DynamicNode> sparkCountsTheRowsItListsAndNamesContainersByTheirUri() {
        List<DynamicNode> tests = new ArrayList<>();
        inputs.forEach((format, list) -> {
            Path directory = list.get(0).file().getParent();
            SparkDoor spark = SparkDoor.listing(EveryDoorOneAnswerTest.spark);
            tests.add(DynamicTest.dynamicTest(format + ": count()", () -> {
                long expected = list.stream().mapToLong(i -> reference(i).seenThrough(spark.aspects()).files()).sum();
                assertThat(timed("spark-count", () -> spark.count(directory)))
                        .as("spark count() of %s/ (all its inputs) against the files nio lists in them", format)
                        .isEqualTo(expected);
            }));
            tests.add(DynamicTest.dynamicTest(format + ": container column", () -> {
                // one canonical URI (Path.toUri()'s) whether the load named the directory or a glob in it
                for (String load : List.of(directory.toString(), directory + "/*")) {
                    for (Row row : spark.containers(load)) {
                        String container = row.getString(0);
                        Path file = directory.resolve(container.substring(container.lastIndexOf('/') + 1));
                        assertThat(container).as("container of %s in a load of %s", file, load)
                                .isEqualTo(file.toUri().toString());
                    }
                }
            }));
        });
        return tests.stream();
    }

    @TestFactory
    Stream<DynamicNode> infoNeverClaimsWhatVerifyRefutes() {
        List<DynamicNode> formats = new ArrayList<>();
        inputs.forEach((format, list) -> {
            // the failures of one input's checks, made ahead on the pool's threads
            Ahead<AssertionError> ahead = new Ahead<>(list, input -> timed("info-verify", () -> {
                try {
                    InfoAndVerify.check(input, reference(input));
                    return null;
                } catch (AssertionError failed) {
                    return failed;
                }
            }));
            formats.add(DynamicContainer.dynamicContainer(format, list.stream().map(input -> DynamicTest.dynamicTest(
                    input.fileName(), () -> {
                        AssertionError failed = ahead.get(input);
                        if (failed != null) {
                            throw failed;
                        }
                    }))));
        });
        return formats.stream();
    }

    /** Work that may throw, timed into {@link #millis}. */
    interface Work<T> {
        T run() throws Exception;
    }

    static <T> T timed(String door, Work<T> work) {
        long start = System.nanoTime();
        try {
            return work.run();
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Exception e) {
            throw new IllegalStateException(door + ": " + e, e);
        } finally {
            millis.merge(door, (System.nanoTime() - start) / 1_000_000, Long::sum);
        }
    }

}
