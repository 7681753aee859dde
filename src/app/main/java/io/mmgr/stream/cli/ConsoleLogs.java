package io.mmgr.stream.cli;

import java.nio.file.Path;
import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.core.Appender;
import org.apache.logging.log4j.core.LoggerContext;
import org.apache.logging.log4j.core.appender.FileAppender;
import org.apache.logging.log4j.core.config.Configuration;
import org.apache.logging.log4j.core.config.LoggerConfig;
import org.apache.logging.log4j.core.layout.PatternLayout;

/**
 * Where log lines go when the scorer runs on the command line: every line (the embedded broker's, the
 * Kafka clients', Streams') to {@link #FILE} in the data directory, beside the broker's own data rather
 * than inside it; on the console only the scorer's own lines ({@code io.mmgr}), unless verbose. The
 * broker's routine warnings (topics that already exist, retried transactions, out-of-order sequences
 * under load) are harmless and look like failure on a console.
 *
 * <p>A log4j2 configuration of the user's own ({@code -Dlog4j2.configurationFile}) is left as it is.
 */
public final class ConsoleLogs {

    public static final String FILE = "mmgr.log";
    static final String CONSOLE = "err";

    private ConsoleLogs() {
    }

    /** Routes the logs as above; returns the file, or null when a configuration of the user's is in charge. */
    public static synchronized Path route(Path dataDir, boolean verbose) {
        if (System.getProperty("log4j2.configurationFile") != null || System.getProperty("log4j.configurationFile") != null) {
            return null;
        }
        if (!(LogManager.getContext(false) instanceof LoggerContext ctx)) {
            return null;
        }
        Configuration config = ctx.getConfiguration();
        Appender console = config.getAppender(CONSOLE);
        if (console == null || config.getAppender("file") != null) {
            return null; // not our log4j2.xml, or already routed
        }
        Path file = dataDir.resolve(FILE).toAbsolutePath();
        FileAppender appender = FileAppender.newBuilder().setName("file").withFileName(file.toString()).withAppend(true)
                .setLayout(PatternLayout.newBuilder().withConfiguration(config)
                        .withPattern("%d{yyyy-MM-dd HH:mm:ss.SSS} %-5level [%t] %c - %msg%n").build())
                .setConfiguration(config).build();
        appender.start();
        config.addAppender(appender);
        LoggerConfig root = config.getRootLogger();
        root.addAppender(appender, null, null);
        if (!verbose) {
            // the scorer's own lines still reach the console (and, additive, the file through the root)
            root.removeAppender(CONSOLE);
            LoggerConfig ours = config.getLoggerConfig("io.mmgr");
            if (!"io.mmgr".equals(ours.getName())) {
                ours = new LoggerConfig("io.mmgr", Level.INFO, true);
                config.addLogger("io.mmgr", ours);
            }
            ours.addAppender(console, null, null);
        }
        ctx.updateLoggers();
        return file;
    }
}
