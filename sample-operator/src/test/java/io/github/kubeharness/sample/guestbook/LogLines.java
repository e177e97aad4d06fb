package io.github.kubeharness.sample.guestbook;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import java.util.List;
import org.slf4j.LoggerFactory;

/** Collects what one class logs while a test runs, to assert on the operator's log lines. */
final class LogLines implements AutoCloseable {

  private final Logger logger;
  private final ListAppender<ILoggingEvent> appender = new ListAppender<>();

  private LogLines(Class<?> source) {
    this.logger = (Logger) LoggerFactory.getLogger(source);
    appender.start();
    logger.addAppender(appender);
  }

  /** Starts collecting the log lines of {@code source}. */
  static LogLines of(Class<?> source) {
    return new LogLines(source);
  }

  /** The formatted messages logged so far. */
  List<String> messages() {
    synchronized (appender.list) {
      return appender.list.stream().map(ILoggingEvent::getFormattedMessage).toList();
    }
  }

  @Override
  public void close() {
    logger.detachAppender(appender);
    appender.stop();
  }
}
