package org.containerfs.cli;

import java.io.BufferedOutputStream;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.InputStream;
import java.io.OutputStreamWriter;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.containerfs.fuse.AotRecording;
import org.containerfs.fuse.MountCommand;
import org.containerfs.fuse.UmountCommand;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.HelpCommand;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParseResult;
import picocli.CommandLine.Spec;

/**
 * The {@code containerfs} command: every subcommand opens the container with
 * {@code FileSystems.newFileSystem(path, env)}, so it works for each format whose provider is registered.
 */
@Command(name = "containerfs",
        mixinStandardHelpOptions = true,
        versionProvider = Containerfs.Version.class,
        description = "Lists, reads, extracts, checks and appends to scientific container files as directory trees: "
                + "LIME, GSD, scda, SIONlib and G3 (.g3, .g3.gz), from local paths or s3://bucket/key.",
        footer = {"", "Exit status: 0 on success, 1 when the command failed (or verify found damage), 2 on a usage error.",
                "Container paths are absolute or relative to the container's root (/msg01/rec01.xml or msg01)."})
public final class Containerfs implements Runnable {
    /**
     * The subcommands by name, in the order help lists them (then {@code help} and {@code completion}). They
     * are added to the command line in {@link #commandLine(InputStream, PrintStream, PrintStream, String)}, not
     * listed in the annotation: picocli reads the annotations of every command it is given when it builds the
     * command line, about a quarter of the time until a mount existed (fuse-mount/README.md, "Start-up and
     * footprint of the daemon").
     */
    static final Map<String, Class<?>> COMMANDS = commands();

    private static Map<String, Class<?>> commands() {
        Map<String, Class<?>> commands = new LinkedHashMap<>();
        commands.put("ls", LsCommand.class);
        commands.put("cat", CatCommand.class);
        commands.put("cp", CpCommand.class);
        commands.put("info", InfoCommand.class);
        commands.put("verify", VerifyCommand.class);
        commands.put("create", CreateCommand.class);
        commands.put("put", PutCommand.class);
        commands.put("mount", MountCommand.class);
        commands.put("umount", UmountCommand.class);
        return java.util.Collections.unmodifiableMap(commands);
    }

    private final InputStream in;
    private final PrintStream out;
    private final PrintStream err;
    private boolean stderrTerminal;

    @Spec
    CommandSpec spec;

    @Option(names = "--debug", description = "Print the stack trace of an error.")
    boolean debug;

    Containerfs(InputStream in, PrintStream out, PrintStream err) {
        this.in = in;
        this.out = out;
        this.err = err;
    }

    /** Standard input (put's source '-'). */
    InputStream in() {
        return in;
    }

    /** Standard output: binary-safe (cat) and UTF-8 for text. */
    PrintStream out() {
        return out;
    }

    PrintStream err() {
        return err;
    }

    /** Whether standard error is a terminal (only ever true for the real one, in {@link #main}). */
    boolean stderrIsTerminal() {
        return stderrTerminal;
    }

    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(), "a subcommand is required");
    }

    public static void main(String[] args) {
        AotRecording.begin(); // the launcher's recording run keeps its record only if the command does its work
        PrintStream out = new PrintStream(new BufferedOutputStream(new FileOutputStream(FileDescriptor.out), 1 << 16),
                false, StandardCharsets.UTF_8);
        PrintStream err = new PrintStream(new FileOutputStream(FileDescriptor.err), true, StandardCharsets.UTF_8);
        String only = onlyCommand(args);
        if ("mount".equals(only)) {
            MountCommand.warmUpFor(args); // binds libfuse on another thread while picocli parses
        }
        CommandLine cl = commandLine(System.in, out, err, only);
        ((Containerfs) cl.getCommand()).stderrTerminal = Progress.stderrIsTerminal();
        int status = cl.execute(args);
        out.flush();
        err.flush();
        AotRecording.end(AotRecording.ran(status, cl.getParseResult(), COMMANDS.keySet()));
        System.exit(status);
    }

    /** Runs one command line with the given streams and returns its exit status (used by main and the tests). */
    public static int run(String[] args, PrintStream out, PrintStream err) {
        return run(args, System.in, out, err);
    }

    /** Runs one command line with the given streams and returns its exit status. */
    public static int run(String[] args, InputStream in, PrintStream out, PrintStream err) {
        CommandLine cl = commandLine(in, out, err, onlyCommand(args));
        int status = cl.execute(args);
        out.flush();
        err.flush();
        return status;
    }

    static CommandLine commandLine(PrintStream out, PrintStream err) {
        return commandLine(System.in, out, err);
    }

    /** The whole command line: every subcommand (help, the manual pages, the completion script). */
    static CommandLine commandLine(InputStream in, PrintStream out, PrintStream err) {
        return commandLine(in, out, err, null);
    }

    /**
     * The subcommand that {@code args} run, when only it needs to be built: the first argument that is not an
     * option names one of {@link #COMMANDS} and the only options before it are {@code --debug}. Null otherwise
     * (top-level help and version, {@code help}, {@code completion}, a mistyped name: those see every command).
     */
    static String onlyCommand(String[] args) {
        for (String arg : args) {
            if (arg.equals("--debug")) {
                continue;
            }
            return COMMANDS.containsKey(arg) ? arg : null;
        }
        return null;
    }

    /** The command line with every subcommand ({@code only} null) or with subcommand {@code only} alone. */
    static CommandLine commandLine(InputStream in, PrintStream out, PrintStream err, String only) {
        Containerfs top = new Containerfs(in, out, err);
        CommandLine cl = new CommandLine(top);
        COMMANDS.forEach((name, command) -> {
            if (only == null || only.equals(name)) {
                cl.addSubcommand(command);
            }
        });
        if (only != null) {
            return configure(cl, out, err);
        }
        cl.addSubcommand(new HelpCommand());
        CommandLine completion = new CommandLine(new picocli.AutoComplete.GenerateCompletion());
        completion.getCommandSpec().usageMessage().hidden(false).description(
                "Prints the bash completion script (zsh too, through bashcompinit).",
                "Install it for bash: containerfs completion > ~/.local/share/bash-completion/completions/containerfs",
                "or for the current shell: source <(containerfs completion);",
                "zsh: autoload -U +X bashcompinit && bashcompinit && source <(containerfs completion)");
        completion.getCommandSpec().name("completion");
        cl.addSubcommand("completion", completion);
        return configure(cl, out, err);
    }

    private static CommandLine configure(CommandLine cl, PrintStream out, PrintStream err) {
        MountProgress.install(cl);
        cl.setOut(new PrintWriter(new OutputStreamWriter(out, StandardCharsets.UTF_8), true));
        cl.setErr(new PrintWriter(new OutputStreamWriter(err, StandardCharsets.UTF_8), true));
        cl.setExecutionExceptionHandler((ex, failed, parseResult) -> {
            if (Boolean.TRUE.equals(jsonOption(failed.getCommandSpec()).map(o -> o.getValue()).orElse(false))) {
                jsonError(out, failed.getCommandSpec(), Errors.describe(ex));
            }
            err.println(failed.getCommandSpec().qualifiedName() + ": " + Errors.describe(ex));
            if (debugRequested(parseResult)) {
                ex.printStackTrace(err);
            }
            return ex instanceof CliException c ? c.status() : 1;
        });
        cl.setParameterExceptionHandler((ex, args) -> {
            String name = ex.getCommandLine().getCommandSpec().qualifiedName();
            // the option may not have been reached: what was typed decides
            CommandSpec failed = ex.getCommandLine().getCommandSpec();
            if (jsonOption(failed).isPresent() && java.util.Arrays.asList(args).contains("--json")) {
                jsonError(out, failed, Errors.safe(ex.getMessage()));
            }
            err.println(name + ": " + Errors.safe(ex.getMessage()) + " (see '" + name + " --help')");
            return 2;
        });
        return cl;
    }

    /** A --json command's standard output is JSON even when it fails (docs/json.md): the error as a document. */
    private static void jsonError(PrintStream out, CommandSpec command, String message) {
        Object container = command.positionalParameters().isEmpty() ? null
                : command.positionalParameters().get(0).getValue(); // <container>, or null if not parsed yet
        out.println(Json.of(JsonReports.error(container instanceof Path p ? p : null, message)));
    }

    private static java.util.Optional<picocli.CommandLine.Model.OptionSpec> jsonOption(CommandSpec command) {
        return java.util.Optional.ofNullable(command.findOption("--json"));
    }

    private static boolean debugRequested(ParseResult parseResult) {
        for (ParseResult pr = parseResult; pr != null; pr = pr.subcommand()) {
            if (pr.hasMatchedOption("--debug")) {
                return true;
            }
        }
        return false;
    }

    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            String v = Containerfs.class.getPackage().getImplementationVersion();
            return new String[] {"containerfs " + (v == null ? "(development build)" : v)};
        }
    }
}
