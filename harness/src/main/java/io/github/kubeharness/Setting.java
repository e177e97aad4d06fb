package io.github.kubeharness;

import java.math.BigDecimal;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.stream.Collectors;

/**
 * One setting of the harness, typed: its name, what it takes, its default, where else it can be set
 * (an attribute of {@code @ControllerTest}, a method of {@link ControlPlaneOptions.Builder}, an
 * option of the CLI), which backends read it and its one-line doc. {@link Settings#ALL} holds every
 * one; the options, the CLI's {@code env} and docs/configuration.md are derived from them.
 *
 * <p>A setting is read as the system property {@link #property()}, else the environment variable
 * {@link #environmentVariable()}; blank is unset. A value that cannot be read fails with the
 * setting's name and what it takes.
 *
 * @param <T> the type of its value
 */
public final class Setting<T> {

  private final String property;
  private final Class<T> type;
  // (value as written, where it was written) -> the value; fails naming that place
  private final BiFunction<String, String, T> parser;
  private final String takes;
  private final Supplier<T> defaultValue;
  private final String defaultText;
  private final String annotation;
  private final List<String> builder;
  private final String cli;
  private final String notOnCli;
  private final List<Backend> backends;
  private final String doc;

  private Setting(
      String property,
      Class<T> type,
      BiFunction<String, String, T> parser,
      String takes,
      Supplier<T> defaultValue,
      String defaultText,
      String annotation,
      List<String> builder,
      String cli,
      String notOnCli,
      List<Backend> backends,
      String doc) {
    this.property = property;
    this.type = type;
    this.parser = parser;
    this.takes = takes;
    this.defaultValue = defaultValue;
    this.defaultText = defaultText;
    this.annotation = annotation;
    this.builder = List.copyOf(builder);
    this.cli = cli;
    this.notOnCli = notOnCli;
    this.backends = List.copyOf(backends);
    this.doc = doc;
  }

  /** A setting that names one constant of {@code type} (any case). */
  static <E extends Enum<E>> Setting<E> choice(String property, Class<E> type, E defaultValue) {
    return base(
        property,
        type,
        (value, source) -> Settings.parseEnum(value, type, source),
        Arrays.stream(type.getEnumConstants())
            .map(c -> c.name().toLowerCase(Locale.ROOT))
            .collect(Collectors.joining("|")),
        () -> defaultValue,
        defaultValue.name().toLowerCase(Locale.ROOT));
  }

  /** A setting of {@code true} or {@code false} (any case). */
  static Setting<Boolean> flag(String property, boolean defaultValue) {
    return base(
        property,
        Boolean.class,
        Setting::parseBoolean,
        "true|false",
        () -> defaultValue,
        Boolean.toString(defaultValue));
  }

  /** A positive number of seconds, fractions allowed (30, 2.5). */
  static Setting<Duration> seconds(String property, Duration defaultValue) {
    return base(
        property,
        Duration.class,
        Setting::parseSeconds,
        "seconds > 0",
        () -> defaultValue,
        BigDecimal.valueOf(defaultValue.toMillis(), 3).stripTrailingZeros().toPlainString());
  }

  /** A whole number of minutes greater than zero. */
  static Setting<Duration> minutes(String property, Duration defaultValue) {
    return base(
        property,
        Duration.class,
        (value, source) -> Duration.ofMinutes(parsePositiveInt(value, source)),
        "minutes > 0",
        () -> defaultValue,
        Long.toString(defaultValue.toMinutes()));
  }

  /** Any whole number (a 64-bit seed), unset by default: the reading code decides. */
  static Setting<Long> wholeNumber(String property, String defaultText) {
    return base(
        property, Long.class, Setting::parseLong, "a whole number", () -> null, defaultText);
  }

  /** A whole number greater than zero. */
  static Setting<Integer> count(String property, int defaultValue) {
    return base(
        property,
        Integer.class,
        Setting::parsePositiveInt,
        "a number > 0",
        () -> defaultValue,
        Integer.toString(defaultValue));
  }

  /**
   * A setting read by {@code parse}, whose default {@code defaultValue} may depend on the machine
   * or on other settings (null: the code that reads it decides, as {@code defaultText} says).
   */
  static <T> Setting<T> of(
      String property,
      Class<T> type,
      String takes,
      Function<String, T> parse,
      Supplier<T> defaultValue,
      String defaultText) {
    return base(
        property, type, (value, source) -> parse.apply(value), takes, defaultValue, defaultText);
  }

  // A setting that is set by its property and variable only, read by every backend, undocumented.
  private static <T> Setting<T> base(
      String property,
      Class<T> type,
      BiFunction<String, String, T> parser,
      String takes,
      Supplier<T> defaultValue,
      String defaultText) {
    return new Setting<>(
        property,
        type,
        parser,
        takes,
        defaultValue,
        defaultText,
        "",
        List.of(),
        "",
        "",
        List.of(),
        "");
  }

  /** This setting, also settable as {@code @ControllerTest(annotation = ...)}. */
  Setting<T> annotation(String attribute) {
    return with(attribute, builder, cli, notOnCli, backends, doc);
  }

  /**
   * This setting, also settable in code: a method of {@code ControlPlaneOptions.Builder} ({@code
   * withProfile}), or of a backend's own options ({@code kind().withImage}: {@code
   * BackendOptions.kind().withImage(...)}, one per backend that reads it).
   */
  Setting<T> builder(String... methods) {
    return with(annotation, List.of(methods), cli, notOnCli, backends, doc);
  }

  /** This setting, also settable by the CLI's {@code option} (the CLI's commands are made so). */
  Setting<T> cli(String option) {
    return with(annotation, builder, option, notOnCli, backends, doc);
  }

  /**
   * This setting of the annotation has no CLI option, for that {@code reason}: the CLI's {@code up}
   * otherwise offers everything the annotation can set (a test holds it to that).
   */
  Setting<T> notOnCli(String reason) {
    return with(annotation, builder, cli, reason, backends, doc);
  }

  /** This setting, read by those backends only. */
  Setting<T> readBy(Backend... readers) {
    return with(annotation, builder, cli, notOnCli, List.of(readers), doc);
  }

  /** This setting with its one-line doc (Markdown). */
  Setting<T> doc(String line) {
    return with(annotation, builder, cli, notOnCli, backends, line);
  }

  // The same value, type and default; what the registry says about it besides.
  private Setting<T> with(
      String annotation,
      List<String> builder,
      String cli,
      String notOnCli,
      List<Backend> backends,
      String doc) {
    return new Setting<>(
        property,
        type,
        parser,
        takes,
        defaultValue,
        defaultText,
        annotation,
        builder,
        cli,
        notOnCli,
        backends,
        doc);
  }

  /** The system property, e.g. {@code kubeharness.profile}. */
  public String property() {
    return property;
  }

  /** The environment variable that mirrors the property, e.g. {@code KUBE_HARNESS_PROFILE}. */
  public String environmentVariable() {
    return Settings.environmentVariable(property);
  }

  /** The type of its value. */
  public Class<T> type() {
    return type;
  }

  /** What it takes, for people: {@code true|false}, {@code seconds > 0}, ... */
  public String takes() {
    return takes;
  }

  /** Its default, for people (a value, or how it is found). */
  public String defaultValue() {
    return defaultText;
  }

  /** The {@code @ControllerTest} attribute that sets it, if any. */
  public Optional<String> annotationAttribute() {
    return Optional.of(annotation).filter(a -> !a.isEmpty());
  }

  /**
   * The methods that set it in code: of {@link ControlPlaneOptions.Builder} ({@code withProfile}),
   * or of a backend's options, written {@code kind().withImage} for {@code
   * BackendOptions.kind().withImage(...)}.
   */
  public List<String> builderMethods() {
    return builder;
  }

  /** The CLI option that sets it, if any. */
  public Optional<String> cliOption() {
    return Optional.of(cli).filter(c -> !c.isEmpty());
  }

  /** Why this setting of the annotation has no CLI option; empty when it has one or is none. */
  public Optional<String> notOnCliBecause() {
    return Optional.of(notOnCli).filter(c -> !c.isEmpty());
  }

  /** The backends that read it; empty: it is not about one backend. */
  public List<Backend> backends() {
    return backends;
  }

  /** Its one-line doc (Markdown). */
  public String doc() {
    return doc;
  }

  /**
   * Where it is read from, for messages: {@code system property ... / environment variable ...}.
   */
  public String describe() {
    return Settings.describe(property);
  }

  /** The value set for it, as written, if any (system property first, then environment). */
  public Optional<String> value() {
    return Settings.get(property);
  }

  /** The value set for it, read; fails naming the setting when it cannot be read. */
  public Optional<T> read() {
    return value().map(value -> parse(value, describe()));
  }

  /**
   * {@code value} as written in {@code source} (a CLI option, an annotation attribute), read as
   * this setting reads it; fails naming {@code source} and what it takes.
   */
  public T parse(String value, String source) {
    return parser.apply(value.trim(), source);
  }

  /** Its default value (null where the reading code decides the default). */
  T typedDefault() {
    return defaultValue.get();
  }

  /** The value set for it, else its default (null where the reading code decides the default). */
  public T resolve() {
    return read().orElseGet(defaultValue);
  }

  /** {@code explicit} when not null (an attribute or a builder call), else {@link #resolve()}. */
  T resolve(T explicit) {
    return explicit != null ? explicit : resolve();
  }

  /** This setting as one of type {@code wanted}; a programming error when it is not. */
  @SuppressWarnings("unchecked")
  <V> Setting<V> as(Class<V> wanted) {
    if (type != wanted) {
      throw new IllegalArgumentException(property + " is a " + type.getSimpleName() + " setting");
    }
    return (Setting<V>) this;
  }

  private static Boolean parseBoolean(String value, String source) {
    if (value.equalsIgnoreCase("true") || value.equalsIgnoreCase("false")) {
      return Boolean.parseBoolean(value);
    }
    throw new KubeHarnessException(
        "Invalid value '" + value + "' in " + source + ": expected true or false.");
  }

  private static Long parseLong(String value, String source) {
    try {
      return Long.parseLong(value);
    } catch (NumberFormatException e) {
      throw new KubeHarnessException(
          "Invalid value '" + value + "' in " + source + ": expected a whole number.", e);
    }
  }

  private static Integer parsePositiveInt(String value, String source) {
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

  private static Duration parseSeconds(String value, String source) {
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

  @Override
  public String toString() {
    return property;
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof Setting<?> that && that.property.equals(property);
  }

  @Override
  public int hashCode() {
    return Objects.hash(property);
  }
}
