package org.containerfs.spark;

import org.apache.spark.sql.SparkSession;

/** One local[2] session for all test classes of the module (starting Spark costs seconds). */
final class SparkSessions {
    private SparkSessions() {}

    private static SparkSession session;

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
