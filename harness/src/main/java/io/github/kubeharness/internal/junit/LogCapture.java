package io.github.kubeharness.internal.junit;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.AppenderBase;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Deque;
import java.util.List;
import org.slf4j.LoggerFactory;

/**
 * Keeps recent log events so a failing test's report can show its controller's log lines. Works
 * when Logback is the SLF4J binding (the common case); with another binding the report says no
 * lines were captured.
 *
 * <p>A line belongs to a test when it was logged during the test and either names the test's
 * namespace — JOSDK puts {@code resource.namespace} into the MDC while it reconciles — or comes
 * from one of the test's controller classes, unless JOSDK logged it while reconciling in another
 * namespace. One buffer serves the whole JVM, as logging does.
 */
final class LogCapture {

  private static final int CAPACITY = 20_000;
  // The MDC key of the namespace of the resource JOSDK reconciles.
  private static final String JOSDK_NAMESPACE = "resource.namespace";
  // The system zone, as the report's other files and logback's default pattern use.
  private static final DateTimeFormatter TIME =
      DateTimeFormatter.ofPattern("HH:mm:ss.SSS").withZone(ZoneId.systemDefault());
  private static volatile Buffer buffer;

  private LogCapture() {}

  /** Starts capturing if Logback is the binding; harmless to call repeatedly. */
  static void install() {
    if (buffer != null) {
      return;
    }
    synchronized (LogCapture.class) {
      if (buffer != null) {
        return;
      }
      try {
        Class.forName("ch.qos.logback.classic.Logger");
      } catch (ClassNotFoundException e) {
        buffer = new Buffer(false);
        return;
      }
      buffer = LogbackHook.attach();
    }
  }

  /** Captured lines of one test: its window, its namespace, its controller classes. */
  static List<String> linesFor(Instant since, String namespace, Collection<Class<?>> controllers) {
    Buffer b = buffer;
    if (b == null || !b.active) {
      return List.of();
    }
    List<String> names = controllers.stream().map(Class::getName).toList();
    List<String> lines = new ArrayList<>();
    synchronized (b.events) {
      for (ILoggingEvent e : b.events) {
        if (e.getTimeStamp() < since.toEpochMilli()) {
          continue;
        }
        // A line JOSDK logged while reconciling in another namespace is another test's, even from
        // the same controller class: classes that run in parallel share the buffer.
        String reconciling = e.getMDCPropertyMap().get(JOSDK_NAMESPACE);
        boolean mine =
            (reconciling == null || reconciling.equals(namespace))
                && (e.getMDCPropertyMap().containsValue(namespace)
                    || String.valueOf(e.getFormattedMessage()).contains(namespace)
                    || names.stream().anyMatch(n -> e.getLoggerName().startsWith(n)));
        if (mine) {
          lines.add(format(e));
        }
      }
    }
    return lines;
  }

  private static String format(ILoggingEvent e) {
    StringBuilder line =
        new StringBuilder()
            .append(TIME.format(Instant.ofEpochMilli(e.getTimeStamp())))
            .append(' ')
            .append(e.getLevel())
            .append(" [")
            .append(e.getThreadName())
            .append("] ")
            .append(e.getLoggerName())
            .append(" - ")
            .append(e.getFormattedMessage());
    if (e.getThrowableProxy() != null) {
      line.append(" | ")
          .append(e.getThrowableProxy().getClassName())
          .append(": ")
          .append(e.getThrowableProxy().getMessage());
    }
    return line.toString();
  }

  private static final class Buffer {
    final boolean active;
    final Deque<ILoggingEvent> events = new ArrayDeque<>();

    Buffer(boolean active) {
      this.active = active;
    }
  }

  // Separate class: referencing Logback types only when Logback is present.
  private static final class LogbackHook {
    static Buffer attach() {
      org.slf4j.Logger root = LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
      if (!(root instanceof Logger logback)) {
        return new Buffer(false);
      }
      Buffer b = new Buffer(true);
      AppenderBase<ILoggingEvent> appender =
          new AppenderBase<>() {
            @Override
            protected void append(ILoggingEvent event) {
              event.prepareForDeferredProcessing();
              synchronized (b.events) {
                if (b.events.size() == CAPACITY) {
                  b.events.removeFirst();
                }
                b.events.addLast(event);
              }
            }
          };
      appender.setName("kube-harness-capture");
      appender.setContext(logback.getLoggerContext());
      appender.start();
      logback.addAppender(appender);
      return b;
    }
  }
}
