package org.containerfs.s3;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

/** The time limits' syntax (docs/remote.md): a unit says what a number means, a bare number is seconds. */
class S3SettingsTest {

    @ParameterizedTest
    @CsvSource({"10s,10000", "500ms,500", "1.5s,1500", "2m,120000", "1h,3600000", "10,10000", "0.25,250",
            "PT1M30S,90000", "pt2s,2000", " 3s ,3000"})
    void durationsWithUnitsAndBareSeconds(String given, long millis) {
        assertThat(S3Settings.duration(Map.of("s3.totalTimeout", given), "s3.totalTimeout", Duration.ZERO))
                .isEqualTo(Duration.ofMillis(millis));
    }

    @Test
    void numbersAreSecondsAndDurationsAreTakenAsGiven() {
        assertThat(S3Settings.duration(Map.of("k", 2), "k", Duration.ZERO)).isEqualTo(Duration.ofSeconds(2));
        assertThat(S3Settings.duration(Map.of("k", Duration.ofMillis(7)), "k", Duration.ZERO)).isEqualTo(Duration.ofMillis(7));
        assertThat(S3Settings.duration(Map.of(), "k", Duration.ofSeconds(60))).isEqualTo(Duration.ofSeconds(60));
    }

    /** Forms that could mean two things, or nothing, are refused with the forms that work. */
    @ParameterizedTest
    @ValueSource(strings = {"10M", "10 s", "10sec", "10S", "1m30s", "-5s", "0", "0s", "s", "", "ten", "1e3", "10ms5"})
    void ambiguousOrEmptyFormsAreRefused(String given) {
        assertThatThrownBy(() -> S3Settings.duration(Map.of("s3.requestTimeout", given), "s3.requestTimeout", Duration.ZERO))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("env s3.requestTimeout=" + given + ": expected ")
                .hasMessageContaining("500ms, 10s")
                .hasMessageContaining("a number alone is seconds");
    }

    @Test
    void theDefaultsBoundAStalledServerByTheRequestTimeout() {
        S3Settings defaults = S3Settings.from(Map.of("s3.region", "us-east-1"));
        assertThat(defaults.connectTimeout()).isEqualTo(Duration.ofSeconds(10));
        assertThat(defaults.requestTimeout()).isEqualTo(Duration.ofSeconds(60));
        assertThat(defaults.totalTimeout()).isEqualTo(Duration.ofSeconds(60));
    }
}
