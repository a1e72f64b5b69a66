package org.containerfs.bench;

/**
 * One line of the results table. {@code ratio} is always "containerfs relative to its baseline" in
 * the direction where higher is better for containerfs (throughput / throughput, or baseline time /
 * containerfs time); blank where the scenario has no baseline.
 */
public record Row(String scenario, String containerfs, String baseline, String ratio, String target, Verdict verdict) {

    public enum Verdict {
        PASS, FAIL,
        /** A figure the issue asks to report, with no pass/fail target. */
        INFO,
        /** The format or a tool the scenario needs is not available on this build or machine. */
        SKIPPED,
        /**
         * The median of per-round ratios and the ratio of the medians disagree, in direction or in verdict (load
         * changed during the run): neither PASS nor FAIL can be claimed; run again on a quieter machine.
         */
        NOISY
    }

    /**
     * {@code verdict}, unless the measurements behind a ratio contradict themselves: then NOISY instead of PASS or
     * FAIL. They do when the median of per-round ratios and the ratio of the medians point different ways from 1
     * ({@link Context#directionsDisagree}), or fall on different sides of the row's {@code threshold} (the two
     * estimates would give different verdicts, and the row shows both: its medians and its ratio).
     */
    public static Verdict unlessNoisy(Verdict verdict, double threshold, double[] baselineTimes, double[] containerfsTimes,
            int perRound) {
        if (verdict != Verdict.PASS && verdict != Verdict.FAIL) {
            return verdict;
        }
        double paired = Context.pairedRatio(baselineTimes, containerfsTimes, perRound);
        double ofMedians = Context.median(baselineTimes) / Context.median(containerfsTimes);
        if (Context.directionsDisagree(baselineTimes, containerfsTimes, perRound)
                || (paired >= threshold) != (ofMedians >= threshold)) {
            return Verdict.NOISY;
        }
        return verdict;
    }

    public static Row skipped(String scenario, String why) {
        return new Row(scenario, why, "", "", "", Verdict.SKIPPED);
    }

    /** Verdict for "higher is better": PASS when {@code value >= threshold}. */
    public static Verdict atLeast(double value, double threshold) {
        return value >= threshold ? Verdict.PASS : Verdict.FAIL;
    }

    /** Verdict for "lower is better": PASS when {@code value <= threshold}. */
    public static Verdict atMost(double value, double threshold) {
        return value <= threshold ? Verdict.PASS : Verdict.FAIL;
    }
}
