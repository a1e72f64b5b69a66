package org.containerfs.bench;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** How a row is judged from alternating rounds: a ratio that contradicts its own medians is NOISY, never PASS/FAIL. */
class RowVerdictTest {
    /** Ratio "baseline time / containerfs time", higher is better for containerfs; {@code perRound} measurements a round. */
    private static Row.Verdict judge(double[] baseline, double[] containerfs, double threshold, int perRound) {
        double paired = Context.pairedRatio(baseline, containerfs, perRound);
        return Row.unlessNoisy(Row.atLeast(paired, threshold), threshold, baseline, containerfs, perRound);
    }

    @Test
    void agreeingEstimatesKeepTheirVerdict() {
        assertThat(judge(new double[] {1.0, 1.1, 0.9}, new double[] {0.5, 0.55, 0.45}, 1.0, 1)).isEqualTo(Row.Verdict.PASS);
        assertThat(judge(new double[] {1.0, 1.1, 0.9}, new double[] {2.0, 2.2, 1.8}, 1.0, 1)).isEqualTo(Row.Verdict.FAIL);
    }

    /** The example: per-round ratios say faster, the medians say slower. */
    @Test
    void estimatesPointingDifferentWaysFromOneAreNoisy() {
        double[] baseline = {3, 1, 1, 1, 5};
        double[] containerfs = {2.4, 0.6, 1.25, 0.6, 4.0};
        assertThat(Context.pairedRatio(baseline, containerfs, 1)).isEqualTo(1.25);
        assertThat(Context.median(baseline) / Context.median(containerfs)).isEqualTo(0.8);
        assertThat(judge(baseline, containerfs, 1.0, 1)).isEqualTo(Row.Verdict.NOISY);
    }

    /** Both below 1, but one estimate meets the 0.95 target and the other does not (times of a run of 2026-11-26). */
    @Test
    void estimatesOnDifferentSidesOfTheTargetAreNoisy() {
        double[] baseline = {0.069, 0.065, 0.062, 0.058, 0.057, 0.064, 0.059, 0.057, 0.064, 0.073, 0.071, 0.065, 0.055,
            0.055, 0.056};
        double[] containerfs = {0.070, 0.068, 0.074, 0.066, 0.063, 0.064, 0.059, 0.056, 0.058, 0.068, 0.064, 0.062, 0.071,
            0.065, 0.059};
        assertThat(Context.pairedRatio(baseline, containerfs, 3)).isLessThan(0.95);
        assertThat(Context.median(baseline) / Context.median(containerfs)).isGreaterThanOrEqualTo(0.95);
        assertThat(judge(baseline, containerfs, 0.95, 3)).isEqualTo(Row.Verdict.NOISY);
    }
}
