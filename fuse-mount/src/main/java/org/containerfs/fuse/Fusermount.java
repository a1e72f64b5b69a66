package org.containerfs.fuse;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Unmounting through fusermount3, which works for the mounting user without root. */
public final class Fusermount {
    private Fusermount() {}

    /** @param ok whether the mount point is unmounted; @param busy whether a process still uses it */
    public record Result(boolean ok, boolean busy, String message) {}

    /** {@code fusermount3 -u [-z] <mountPoint>}. */
    public static Result unmount(Path mountPoint, boolean lazy) {
        String mp = mountPoint.toAbsolutePath().normalize().toString();
        List<String> cmd = new ArrayList<>();
        try {
            cmd.add(LibFuse.fusermount().toString());
        } catch (FuseUnavailableException e) {
            return new Result(false, false, e.getMessage());
        }
        cmd.add("-u");
        if (lazy) {
            cmd.add("-z");
        }
        cmd.add("--");
        cmd.add(mp);
        try {
            Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
            p.getOutputStream().close();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
            if (!p.waitFor(30, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                return new Result(false, false, "fusermount3 did not finish within 30 s");
            }
            if (p.exitValue() == 0) {
                return new Result(true, false, "unmounted " + mp);
            }
            boolean busy = out.contains("busy");
            String message;
            if (busy) {
                message = mp + " is busy: a process has a file or directory open there (close it, or unmount with --lazy)";
            } else if (out.contains("not found") || out.contains("not mounted") || out.contains("Invalid argument")) {
                message = mp + " is not a FUSE mount (" + out + ")";
            } else {
                message = "fusermount3 -u " + mp + " failed: " + out;
            }
            return new Result(false, busy, message);
        } catch (IOException e) {
            return new Result(false, false, "running fusermount3 failed: " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new Result(false, false, "interrupted while unmounting " + mp);
        }
    }
}
