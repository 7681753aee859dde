package io.mmgr.stream.it;

import java.io.StringWriter;
import java.util.HashMap;
import java.util.Map;
import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.core.LoggerContext;
import org.apache.logging.log4j.core.appender.WriterAppender;
import org.apache.logging.log4j.core.config.Configuration;
import org.apache.logging.log4j.core.config.LoggerConfig;
import org.apache.logging.log4j.core.layout.PatternLayout;

/**
 * Captures everything logged in this JVM while open, at {@code level} or above for every logger
 * (configured levels are lowered for the duration and restored on close), messages and stack traces.
 */
public final class LogCapture implements AutoCloseable {

    private final StringWriter text = new StringWriter();
    private final WriterAppender appender;
    private final Map<LoggerConfig, Level> previous = new HashMap<>();
    private final LoggerContext context;

    public LogCapture(Level level) {
        context = (LoggerContext) LogManager.getContext(false);
        Configuration config = context.getConfiguration();
        appender = WriterAppender.newBuilder().setName("capture-" + System.nanoTime()).setTarget(text)
                .setLayout(PatternLayout.newBuilder().withPattern("%-5level %c - %m%n%ex").build()).build();
        appender.start();
        config.addAppender(appender);
        for (LoggerConfig lc : config.getLoggers().values()) {
            previous.put(lc, lc.getLevel());
            if (lc.getLevel().isMoreSpecificThan(level)) {
                lc.setLevel(level);
            }
        }
        LoggerConfig root = config.getRootLogger();
        root.addAppender(appender, level, null);
        context.updateLoggers();
    }

    public String text() {
        synchronized (text) {
            return text.toString();
        }
    }

    @Override
    public void close() {
        Configuration config = context.getConfiguration();
        config.getRootLogger().removeAppender(appender.getName());
        previous.forEach(LoggerConfig::setLevel);
        context.updateLoggers();
        appender.stop();
    }
}
