package org.containerfs.spark;

import org.apache.spark.sql.SparkSession;

/** One local[2] session for all test classes of the module (starting Spark costs seconds). */
final class SparkSessions {
    private SparkSessions() {}

    private static SparkSession session;

    /**
     * Sets a session setting for the queries that follow (the tests run one at a time), or unsets it for null:
     * settings Spark reads when it plans a query ({@link ContainerfsFileFormat#COLUMNAR_CONF},
     * {@code spark.sql.files.maxPartitionBytes}) apply to the queries run while they are set.
     */
    static void set(String key, String value) {
        if (value == null) {
            local2().conf().unset(key);
        } else {
            local2().conf().set(key, value);
        }
    }

    /** Runs {@code query} with {@code key} set to {@code value}, then unsets it. */
    static <T> T with(String key, String value, java.util.function.Supplier<T> query) {
        set(key, value);
        try {
            return query.get();
        } finally {
            set(key, null);
        }
    }

    static synchronized SparkSession local2() {
        if (session == null) {
            session = SparkSession.builder()
                    .master("local[2]")
                    .appName("containerfs-tests")
                    .config("spark.ui.enabled", "false")
                    .config("spark.sql.shuffle.partitions", "2")
                    .config("spark.driver.host", "127.0.0.1")
                    .config("spark.driver.bindAddress", "127.0.0.1")
                    .getOrCreate();
        }
        return session;
    }
}
