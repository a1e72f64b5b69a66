package org.containerfs.differential;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One way into a container (NIO, the CLI, a FUSE mount, S3, Hadoop, Spark...). A door answers the same
 * question for every {@link Input}: which paths, of which type and size, with which content. Adding a door
 * to the suite is one implementation and one line in {@link EveryDoorOneAnswerTest#doors}.
 */
interface Door extends AutoCloseable {
    String name();

    /** What this door can observe (by default everything); the reference is compared through the same aspects. */
    default Set<Aspect> aspects() {
        return java.util.EnumSet.allOf(Aspect.class);
    }

    /**
     * The inputs of one format this door is asked about: all of them, unless a door that costs a lot per
     * input samples them (deterministically, and saying how in its documentation).
     */
    default List<Input> select(List<Input> inputsOfOneFormat) {
        return inputsOfOneFormat;
    }

    /**
     * Whether {@link #answer} may run for several inputs at once (on {@link Ahead}'s threads); a door with one
     * mount point may not.
     */
    default boolean concurrent() {
        return true;
    }

    /** The door's normalized answer for one input. */
    Answer answer(Input input) throws Exception;

    /**
     * Answers for all inputs of one format (one directory of {@link Inputs}); a door that reads a whole
     * directory at once (Spark) overrides this.
     */
    default Map<Input, Answer> answers(List<Input> inputsOfOneFormat) throws Exception {
        Map<Input, Answer> answers = new LinkedHashMap<>();
        for (Input input : select(inputsOfOneFormat)) {
            answers.put(input, answer(input));
        }
        return answers;
    }

    @Override
    default void close() throws Exception {}
}
