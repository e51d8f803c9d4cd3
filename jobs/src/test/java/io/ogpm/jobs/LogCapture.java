package io.ogpm.jobs;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.core.LogEvent;
import org.apache.logging.log4j.core.LoggerContext;
import org.apache.logging.log4j.core.appender.AbstractAppender;
import org.apache.logging.log4j.core.config.Configuration;
import org.apache.logging.log4j.core.config.LoggerConfig;
import org.apache.logging.log4j.core.config.Property;

/**
 * Captures every log event (message and stack trace) while open: for checking logs carry no values.
 */
final class LogCapture implements AutoCloseable {
  private final List<String> lines = new CopyOnWriteArrayList<>();
  private final AbstractAppender appender;
  private final LoggerContext context;

  LogCapture() {
    context = (LoggerContext) LogManager.getContext(false);
    appender =
        new AbstractAppender("ogpm-test-capture", null, null, true, Property.EMPTY_ARRAY) {
          @Override
          public void append(LogEvent event) {
            StringBuilder s = new StringBuilder(event.getMessage().getFormattedMessage());
            if (event.getThrown() != null) {
              StringWriter w = new StringWriter();
              event.getThrown().printStackTrace(new PrintWriter(w));
              s.append('\n').append(w);
            }
            lines.add(s.toString());
          }
        };
    appender.start();
    Configuration config = context.getConfiguration();
    config.addAppender(appender);
    config.getRootLogger().addAppender(appender, Level.ALL, null);
    for (LoggerConfig logger : config.getLoggers().values()) {
      logger.addAppender(appender, Level.ALL, null);
    }
    context.updateLoggers();
  }

  List<String> lines() {
    return lines;
  }

  @Override
  public void close() {
    Configuration config = context.getConfiguration();
    config.getRootLogger().removeAppender(appender.getName());
    for (LoggerConfig logger : config.getLoggers().values()) {
      logger.removeAppender(appender.getName());
    }
    context.updateLoggers();
    appender.stop();
  }
}
