package org.containerfs.differential;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Work on every input of one format, started on {@link #THREADS} threads when the first result is asked
 * for, so that the dynamic tests (which JUnit runs one after another) find theirs done: the suite's CPU
 * work uses both cores of a CI machine. Each test still gets its own input's result or exception.
 */
final class Ahead<V> {
    static final int THREADS = 2;
    private static final ExecutorService POOL = Executors.newFixedThreadPool(THREADS, r -> {
        Thread t = new Thread(r, "differential-ahead");
        t.setDaemon(true);
        return t;
    });

    /** The work for one input. */
    interface Work<V> {
        V on(Input input) throws Exception;
    }

    private final List<Input> inputs;
    private final Work<V> work;
    private Map<Input, Future<V>> started;

    Ahead(List<Input> inputs, Work<V> work) {
        this.inputs = inputs;
        this.work = work;
    }

    /** This input's result (or its work's exception), once done. */
    V get(Input input) throws Exception {
        Future<V> future;
        synchronized (this) {
            if (started == null) {
                started = new LinkedHashMap<>();
                for (Input i : inputs) {
                    started.put(i, POOL.submit(() -> work.on(i)));
                }
            }
            future = started.get(input);
        }
        try {
            return future.get();
        } catch (ExecutionException e) {
            throw e.getCause() instanceof Exception cause ? cause : e;
        }
    }
}
