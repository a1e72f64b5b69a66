package org.containerfs.tools;

import com.sun.jdi.AbsentInformationException;
import com.sun.jdi.Bootstrap;
import com.sun.jdi.IncompatibleThreadStateException;
import com.sun.jdi.ReferenceType;
import com.sun.jdi.ThreadReference;
import com.sun.jdi.VirtualMachine;
import com.sun.jdi.connect.Connector;
import com.sun.jdi.connect.LaunchingConnector;
import com.sun.jdi.event.Event;
import com.sun.jdi.event.EventSet;
import com.sun.jdi.event.LocatableEvent;
import com.sun.jdi.event.MethodEntryEvent;
import com.sun.jdi.event.MethodExitEvent;
import com.sun.jdi.event.VMDeathEvent;
import com.sun.jdi.event.VMDisconnectEvent;
import com.sun.jdi.request.EventRequest;
import com.sun.jdi.request.EventRequestManager;
import com.sun.jdi.request.MethodEntryRequest;
import com.sun.jdi.request.MethodExitRequest;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.zip.GZIPOutputStream;
import org.containerfs.core.ContainerFileSystems;
import org.containerfs.storage.PathInput;

/**
 * Counts the open path: which source files of containerfs one open passes through, in order, and how often it comes
 * back to a file it had left. It launches a child JVM under the Java debug interface (JDI, part of the JDK: no agent,
 * no JFR, no logging), lets it open one container once to load and initialize every class, then records, on the
 * opening thread only, every method entry and exit of {@code org.containerfs.*} during a second open of the same
 * kind. The "current file" is the source file of the innermost containerfs frame; each change of it is one visit.
 * A call of an accessor (a method of at most 5 bytes of bytecode that calls nothing: a record component, a getter)
 * is no visit.
 * A format's package and {@code storage/gzip} count as one visit each: what happens inside a format (its scan, the
 * nodes it builds, the reads it makes) or inside the inflater is that layer's own work, not the path between layers.
 *
 * <p>Figures per open: the files entered, the visits, the returns to a file already left (visits minus files, the
 * figure of issue 26), the calls into a file already left (re-entries by a call, not by a return), the visits of
 * each file and how often each was entered by a call (a layer called once: 1). {@code mvn -B -o -q -pl provider test -Dtest=OpenPathTraceTest} prints them (and each path).
 *
 * <p>Kinds: {@code lime} ({@code FileSystems.newFileSystem(path)} of a LIME file), {@code gz} (the same of a
 * {@code .lime.gz}), {@code input} ({@code ContainerFileSystems.open(ContainerInput, env)} of a remote-like input, as
 * the S3 and Hadoop modules open).
 */
public final class OpenPathTrace {
    /** Packages whose inside is one visit (a format's or the inflater's own work). */
    private static final List<String> COLLAPSED = List.of("org.containerfs.lime.", "org.containerfs.gsd.",
            "org.containerfs.scda.", "org.containerfs.sion.", "org.containerfs.g3.", "org.containerfs.storage.gzip.");
    private static final String TARGET = Target.class.getName();

    private OpenPathTrace() {}

    /** One traced open. */
    public record Trace(String kind, List<String> visits, int callsIntoFilesLeft, Map<String, Integer> callsByFile) {
        public Set<String> files() {
            return new LinkedHashSet<>(visits);
        }

        public int returnsToFilesLeft() {
            return visits.size() - files().size();
        }

        /** Visits of each file, in order of first visit. */
        public Map<String, Integer> visitsByFile() {
            Map<String, Integer> m = new LinkedHashMap<>();
            for (String v : visits) {
                m.merge(v, 1, Integer::sum);
            }
            return m;
        }

        public String summary() {
            StringBuilder sb = new StringBuilder();
            sb.append(kind).append(": ").append(files().size()).append(" files, ").append(visits.size())
                    .append(" visits, ").append(returnsToFilesLeft()).append(" returns to a file already left, ")
                    .append(callsIntoFilesLeft).append(" calls into a file already left\n  visits by file:");
            visitsByFile().forEach((f, n) -> sb.append(' ').append(f).append('=').append(n));
            sb.append("\n  entered by a call:");
            callsByFile.forEach((f, n) -> sb.append(' ').append(f).append('=').append(n));
            sb.append("\n  path: ").append(String.join(" > ", visits));
            return sb.toString();
        }
    }

    public static void main(String[] args) throws Exception {
        List<String> kinds = args.length == 0 ? List.of("lime", "gz", "input") : List.of(args);
        for (String kind : kinds) {
            System.out.println(trace(kind).summary());
        }
    }

    /** Traces one open of {@code kind} in a child JVM on this JVM's class path. */
    public static Trace trace(String kind) throws Exception {
        Path work = Files.createTempDirectory("open-path-trace");
        LaunchingConnector connector = Bootstrap.virtualMachineManager().defaultConnector();
        Map<String, Connector.Argument> arguments = connector.defaultArguments();
        arguments.get("main").setValue(TARGET + " " + kind + " " + work);
        arguments.get("options").setValue("-cp \"" + System.getProperty("java.class.path") + "\""
                + " -Dcontainerfs.indexCache=" + work.resolve("index-cache"));
        VirtualMachine vm = connector.launch(arguments);
        drain(vm.process().getInputStream(), System.out);
        drain(vm.process().getErrorStream(), System.err);
        EventRequestManager requests = vm.eventRequestManager();
        MethodEntryRequest entries = requests.createMethodEntryRequest();
        entries.addClassFilter("org.containerfs.*");
        entries.setSuspendPolicy(EventRequest.SUSPEND_EVENT_THREAD);
        entries.enable();
        MethodExitRequest exits = requests.createMethodExitRequest();
        exits.addClassFilter("org.containerfs.*");
        exits.setSuspendPolicy(EventRequest.SUSPEND_EVENT_THREAD);
        exits.enable();

        Recorder recorder = new Recorder();
        boolean running = true;
        vm.resume();
        while (running) {
            EventSet set = vm.eventQueue().remove();
            for (Event e : set) {
                if (e instanceof VMDeathEvent || e instanceof VMDisconnectEvent) {
                    running = false;
                } else if (e instanceof MethodEntryEvent entry) {
                    recorder.entered(entry);
                } else if (e instanceof MethodExitEvent exit) {
                    recorder.exited(exit);
                }
            }
            if (running) {
                set.resume();
            }
        }
        int exit = vm.process().waitFor();
        if (exit != 0 || !recorder.ended) {
            throw new IllegalStateException("the traced open of " + kind + " failed (exit " + exit + ")");
        }
        return new Trace(kind, List.copyOf(recorder.visits), recorder.callsIntoLeft,
                java.util.Collections.unmodifiableMap(recorder.calls));
    }

    private static void drain(InputStream in, OutputStream out) {
        Thread t = new Thread(() -> {
            try {
                in.transferTo(out);
            } catch (IOException ignored) {
                // the child is gone
            }
        });
        t.setDaemon(true);
        t.start();
    }

    /** Keeps the traced thread's containerfs frames and the visits they make. */
    private static final class Recorder {
        private record Frame(int depth, String file, boolean hidden, boolean collapses) {}

        final List<String> visits = new ArrayList<>();
        final Deque<Frame> frames = new ArrayDeque<>();
        final Set<String> left = new LinkedHashSet<>();
        int callsIntoLeft;
        final Map<String, Integer> calls = new LinkedHashMap<>();
        ThreadReference traced;
        boolean ended;
        String current;

        void entered(MethodEntryEvent e) {
            ReferenceType type = e.location().declaringType();
            if (type.name().equals(TARGET)) {
                String method = e.method().name();
                if (method.equals("begin")) {
                    traced = e.thread();
                } else if (method.equals("end") && traced != null && traced.equals(e.thread())) {
                    traced = null;
                    ended = true;
                }
                return;
            }
            if (traced == null || !traced.equals(e.thread()) || type.name().startsWith("org.containerfs.tools.")) {
                return;
            }
            int depth = depth(e);
            unwind(depth);
            boolean hidden = !frames.isEmpty() && (frames.peek().hidden() || frames.peek().collapses());
            if (!hidden && accessor(e.method())) {
                // a method that only returns a field or a constant is no passage through its file
                frames.push(new Frame(depth, frames.isEmpty() ? null : frames.peek().file(), true, false));
                return;
            }
            String file = hidden ? frames.peek().file() : fileOf(type);
            frames.push(new Frame(depth, file, hidden, !hidden && collapsed(type.name())));
            if (!hidden) {
                move(file, true);
            }
        }

        void exited(MethodExitEvent e) {
            if (traced == null || !traced.equals(e.thread())) {
                return;
            }
            String name = e.location().declaringType().name();
            if (name.startsWith("org.containerfs.tools.")) {
                return;
            }
            unwind(depth(e));
            move(frames.isEmpty() ? null : frames.peek().file(), false);
        }

        /** Drops the frames at or above {@code depth} (gone by a return, or by an exception: that has no event). */
        private void unwind(int depth) {
            while (!frames.isEmpty() && frames.peek().depth() >= depth) {
                frames.pop();
            }
            if (frames.isEmpty()) {
                move(null, false);
            }
        }

        private void move(String file, boolean byCall) {
            if (java.util.Objects.equals(file, current)) {
                return;
            }
            if (current != null) {
                left.add(current);
            }
            current = file;
            if (file != null) {
                if (byCall && left.contains(file)) {
                    callsIntoLeft++;
                }
                if (byCall) {
                    calls.merge(file, 1, Integer::sum);
                }
                visits.add(file);
            }
        }

        private static int depth(LocatableEvent e) {
            try {
                return e.thread().frameCount();
            } catch (IncompatibleThreadStateException ex) {
                throw new IllegalStateException(ex);
            }
        }

        private final Map<com.sun.jdi.Method, Boolean> accessors = new java.util.HashMap<>();

        /**
         * Whether {@code method} only returns a field or a constant (a record's accessor, a getter): at most 5 bytes of
         * bytecode, no call among them.
         */
        private boolean accessor(com.sun.jdi.Method method) {
            return accessors.computeIfAbsent(method, m -> {
                byte[] code = m.bytecodes();
                if (code.length == 0 || code.length > 5) {
                    return false;
                }
                for (int i = 0; i < Math.min(2, code.length); i++) {
                    int op = code[i] & 0xFF;
                    if (op >= 0xb6 && op <= 0xba) { // invokevirtual .. invokedynamic
                        return false;
                    }
                }
                return true;
            });
        }

        private static boolean collapsed(String className) {
            for (String p : COLLAPSED) {
                if (className.startsWith(p)) {
                    return true;
                }
            }
            return false;
        }

        /** {@code core/PathOpener.java}: the source file, relative to {@code org/containerfs/}. */
        private static String fileOf(ReferenceType type) {
            String name = type.name();
            String pkg = name.substring(0, name.lastIndexOf('.'));
            String source;
            try {
                source = type.sourceName();
            } catch (AbsentInformationException hiddenClass) {
                String simple = name.substring(pkg.length() + 1);
                int dollar = simple.indexOf('$');
                source = (dollar < 0 ? simple : simple.substring(0, dollar)) + ".java";
            }
            return pkg.substring("org.containerfs.".length()).replace('.', '/') + "/" + source;
        }
    }

    /** The child: one open to warm up, then the traced one between {@link #begin} and {@link #end}. */
    public static final class Target {
        private Target() {}

        public static void main(String[] args) throws Exception {
            String kind = args[0];
            Path work = Path.of(args[1]);
            Path lime = copyOfCorpus("s03_multi_msg_pack.lime", work.resolve("conf.lime"));
            Path gz = gzip(lime, work.resolve("conf.lime.gz"));
            Opener opener = switch (kind) {
                case "lime" -> () -> FileSystems.newFileSystem(lime);
                case "gz" -> () -> FileSystems.newFileSystem(gz);
                // remote, as an object of S3 or a file of HDFS is: the block cache is put in front
                case "input" -> () -> ContainerFileSystems.open(PathInput.of(lime, true), Map.of());
                default -> throw new IllegalArgumentException("kind must be lime, gz or input, got " + kind);
            };
            opener.open().close(); // the first open loads and initializes every class it needs
            begin();
            FileSystem fs = opener.open();
            end();
            fs.close();
        }

        private interface Opener {
            FileSystem open() throws IOException;
        }

        /** Where the traced open begins (the tracer watches for this call). */
        static void begin() {}

        /** Where it ends. */
        static void end() {}

        private static Path copyOfCorpus(String name, Path to) throws IOException {
            try (InputStream in = Target.class.getResourceAsStream("/corpus/lime/" + name)) {
                if (in == null) {
                    throw new IOException("corpus file lime/" + name + " not on the class path");
                }
                Files.copy(in, to);
            }
            return to;
        }

        private static Path gzip(Path file, Path to) throws IOException {
            try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(to))) {
                Files.copy(file, out);
            }
            return to;
        }
    }
}
