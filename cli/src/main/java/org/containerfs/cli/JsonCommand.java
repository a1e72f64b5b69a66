package org.containerfs.cli;

import java.nio.file.Path;

/**
 * A command that takes {@code --json}: whatever happens, its standard output is JSON (docs/json.md), so a
 * failure before its report is printed as {@link JsonReports#error} by the command line's error handlers.
 */
interface JsonCommand {
    /** Whether --json was given. */
    boolean jsonRequested();

    /** The container argument as parsed (null if parsing did not get that far). */
    Path container();
}
