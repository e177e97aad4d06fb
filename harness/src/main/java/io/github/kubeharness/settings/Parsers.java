package io.github.kubeharness.settings;

import io.github.kubeharness.KubeHarnessException;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * How the settings' kinds of value are read from text; each failure names where the text was
 * written ({@code source}) and what it takes.
 */
final class Parsers {

  private Parsers() {}

  static Boolean bool(String value, String source) {
    if (value.equalsIgnoreCase("true") || value.equalsIgnoreCase("false")) {
      return Boolean.parseBoolean(value);
    }
    throw new KubeHarnessException(
        "Invalid value '" + value + "' in " + source + ": expected true or false.");
  }

  static Long wholeNumber(String value, String source) {
    try {
      return Long.parseLong(value);
    } catch (NumberFormatException e) {
      throw new KubeHarnessException(
          "Invalid value '" + value + "' in " + source + ": expected a whole number.", e);
    }
  }

  static Integer positive(String value, String source) {
    try {
      int number = Integer.parseInt(value);
      if (number > 0) {
        return number;
      }
    } catch (NumberFormatException e) {
      // reported below, with the setting's name
    }
    throw new KubeHarnessException(
        "Invalid value '" + value + "' in " + source + ": expected a whole number greater than 0.");
  }

  static Duration seconds(String value, String source) {
    try {
      BigDecimal seconds = new BigDecimal(value);
      if (seconds.signum() > 0) {
        return Duration.ofMillis(Math.max(1, seconds.movePointRight(3).longValue()));
      }
    } catch (NumberFormatException | ArithmeticException e) {
      // reported below, with the setting's name
    }
    throw new KubeHarnessException(
        "Invalid value '"
            + value
            + "' in "
            + source
            + ": expected a positive number of seconds, e.g. 30 or 2.5.");
  }

  /** Seconds as the settings write them: {@code 30}, {@code 0.3}. */
  static String seconds(Duration duration) {
    return BigDecimal.valueOf(duration.toMillis(), 3).stripTrailingZeros().toPlainString();
  }

  /** {@code value} as a constant of {@code type} (any case). */
  static <E extends Enum<E>> E choice(String value, Class<E> type, String source) {
    try {
      return Enum.valueOf(type, value.trim().toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new KubeHarnessException(
          "Unknown "
              + type.getSimpleName().replaceAll("([a-z])([A-Z])", "$1 $2").toLowerCase(Locale.ROOT)
              + " '"
              + value
              + "' in "
              + source
              + ". Expected one of: "
              + choices(type, ", "));
    }
  }

  static String choices(Class<? extends Enum<?>> type, String separator) {
    return Arrays.stream(type.getEnumConstants())
        .map(c -> c.name().toLowerCase(Locale.ROOT))
        .collect(Collectors.joining(separator));
  }
}
