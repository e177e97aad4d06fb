package io.github.kubeharness.settings;

import io.github.kubeharness.Backend;
import io.github.kubeharness.ControlPlaneOptions;
import io.github.kubeharness.Settings;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * One setting of the harness, typed, and the key to read it by: {@code
 * HarnessSettings.PROFILE.resolve()}. It holds its name, what it takes, its default, where else it
 * can be set (an attribute of {@code @ControllerTest}, a method of {@link
 * ControlPlaneOptions.Builder}, an option of the CLI), which backends read it and its one-line doc.
 * {@link HarnessSettings#ALL} holds every one; the options, the CLI's {@code env} and the docs'
 * tables are derived from them.
 *
 * <p>A setting is read as the system property {@link #property()}, else the environment variable
 * {@link #environmentVariable()}; blank is unset. A value that cannot be read fails with the
 * setting's name and what it takes.
 *
 * @param <T> the type of its value
 */
public final class Setting<T> {

  // How its value is written and read.
  private record Reading<T>(
      String property, // null: an environment variable only (envtest's)
      String variable,
      Class<T> type,
      // (value as written, where it was written) -> the value; fails naming that place
      BiFunction<String, String, T> parser,
      Function<T, String> text,
      String takes,
      Supplier<T> defaultValue,
      String defaultText) {}

  private static final Function<ControlPlaneOptions, Optional<?>> HELD_BY_NONE =
      options -> Optional.empty();

  private final String property;
  private final String variable;
  private final Class<T> type;
  private final Reading<T> reading;
  // What the registry says about it besides its value: where else it is set, and its doc. Set by
  // the chained calls that declare the constant, in HarnessSettings' class initialisation (which
  // publishes it to every thread), and never changed after.
  private String annotation = "";
  private List<String> builder = List.of();
  private String cli = "";
  private String notOnCli = "";
  private List<Backend> backends = List.of();
  private String doc = "";
  private Function<ControlPlaneOptions, Optional<?>> held = HELD_BY_NONE;

  private Setting(Reading<T> reading) {
    this.reading = reading;
    this.property = reading.property();
    this.variable = reading.variable();
    this.type = reading.type();
  }

  /**
   * A setting of kube-harness: {@code property}, mirrored by its {@code KUBE_HARNESS_} variable.
   */
  static <T> Setting<T> of(
      String property,
      Class<T> type,
      String takes,
      BiFunction<String, String, T> parser,
      Function<T, String> text,
      Supplier<T> defaultValue,
      String defaultText) {
    String variable = Settings.environmentVariable(property);
    return new Setting<>(
        new Reading<>(property, variable, type, parser, text, takes, defaultValue, defaultText));
  }

  /** A variable of envtest's that kube-harness honours as envtest does: no system property. */
  static <T> Setting<T> envtest(
      String variable,
      Class<T> type,
      String takes,
      BiFunction<String, String, T> parser,
      String defaultText) {
    return new Setting<>(
        new Reading<>(
            null, variable, type, parser, String::valueOf, takes, () -> null, defaultText));
  }

  /** A setting of text, whose default (null: the reading code's) is {@code defaultValue}. */
  static Setting<String> text(
      String property, String takes, Supplier<String> defaultValue, String defaultText) {
    return of(property, String.class, takes, (v, s) -> v, v -> v, defaultValue, defaultText);
  }

  /** A setting that names one constant of {@code type} (any case). */
  static <E extends Enum<E>> Setting<E> choice(String property, Class<E> type, E defaultValue) {
    return of(
        property,
        type,
        Parsers.choices(type, "|"),
        (value, source) -> Parsers.choice(value, type, source),
        e -> e.name().toLowerCase(Locale.ROOT),
        () -> defaultValue,
        defaultValue.name().toLowerCase(Locale.ROOT));
  }

  /** A setting of {@code true} or {@code false} (any case). */
  static Setting<Boolean> flag(String property, boolean defaultValue) {
    return of(
        property,
        Boolean.class,
        "true|false",
        Parsers::bool,
        String::valueOf,
        () -> defaultValue,
        Boolean.toString(defaultValue));
  }

  /** A positive number of seconds, fractions allowed (30, 2.5). */
  static Setting<Duration> seconds(String property, Duration defaultValue) {
    return of(
        property,
        Duration.class,
        "seconds > 0",
        Parsers::seconds,
        Parsers::seconds,
        () -> defaultValue,
        Parsers.seconds(defaultValue));
  }

  /** A whole number of minutes greater than zero. */
  static Setting<Duration> minutes(String property, Duration defaultValue) {
    return of(
        property,
        Duration.class,
        "minutes > 0",
        (value, source) -> Duration.ofMinutes(Parsers.positive(value, source)),
        d -> Long.toString(d.toMinutes()),
        () -> defaultValue,
        Long.toString(defaultValue.toMinutes()));
  }

  /** Any whole number (a 64-bit seed), unset by default: the reading code decides. */
  static Setting<Long> wholeNumber(String property, String defaultText) {
    return of(
        property,
        Long.class,
        "a whole number",
        Parsers::wholeNumber,
        String::valueOf,
        () -> null,
        defaultText);
  }

  /** A whole number greater than zero. */
  static Setting<Integer> count(String property, int defaultValue) {
    return of(
        property,
        Integer.class,
        "a number > 0",
        Parsers::positive,
        String::valueOf,
        () -> defaultValue,
        Integer.toString(defaultValue));
  }

  /** This setting, also settable as {@code @ControllerTest(annotation = ...)}. */
  Setting<T> annotation(String attribute) {
    this.annotation = attribute;
    return this;
  }

  /**
   * This setting, also settable in code: a method of {@code ControlPlaneOptions.Builder} ({@code
   * withProfile}), or of a backend's own options ({@code kind().withImage}: {@code
   * BackendOptions.kind().withImage(...)}, one per backend that reads it).
   */
  Setting<T> builder(String... methods) {
    this.builder = List.of(methods);
    return this;
  }

  /** This setting, also settable by the CLI's {@code option} (the CLI's commands are made so). */
  Setting<T> cli(String option) {
    this.cli = option;
    return this;
  }

  /**
   * This setting of the annotation has no CLI option, for that {@code reason}: the CLI's {@code up}
   * otherwise offers everything the annotation can set (a test holds it to that).
   */
  Setting<T> notOnCli(String reason) {
    this.notOnCli = reason;
    return this;
  }

  /** This setting, read by those backends only. */
  Setting<T> readBy(Backend... readers) {
    this.backends = List.of(readers);
    return this;
  }

  /** This setting with its one-line doc (Markdown). */
  Setting<T> doc(String line) {
    this.doc = line;
    return this;
  }

  /** This setting, whose value resolved options hold where {@code held} finds it. */
  Setting<T> heldBy(Function<ControlPlaneOptions, Optional<T>> held) {
    this.held = held::apply;
    return this;
  }

  /**
   * The system property, e.g. {@code kubeharness.profile}; for envtest's variables, which have
   * none, the variable.
   */
  public String property() {
    return property != null ? property : variable;
  }

  /** Whether it is read from a system property too (envtest's variables are not). */
  public boolean hasProperty() {
    return property != null;
  }

  /** The environment variable, e.g. {@code KUBE_HARNESS_PROFILE}. */
  public String environmentVariable() {
    return variable;
  }

  /** The type of its value. */
  public Class<T> type() {
    return type;
  }

  /** What it takes, for people: {@code true|false}, {@code seconds > 0}, ... */
  public String takes() {
    return reading.takes();
  }

  /** Its default, for people (a value, or how it is found). */
  public String defaultValue() {
    return reading.defaultText();
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
    return (property != null ? "system property " + property + " / " : "")
        + "environment variable "
        + variable;
  }

  /** The value set for it, read; fails naming the setting when it cannot be read. */
  public Optional<T> read() {
    return written().map(w -> parse(w.value(), describe()));
  }

  /** The value set for it, else its default (null where the reading code decides the default). */
  public T resolve() {
    return read().orElseGet(reading.defaultValue());
  }

  /**
   * {@code value} as written in {@code source} (a CLI option, an annotation attribute), read as
   * this setting reads it; fails naming {@code source} and what it takes.
   */
  public T parse(String value, String source) {
    return reading.parser().apply(value.trim(), source);
  }

  /**
   * The value {@code options} hold for it, as {@code kube-harness env} prints it; for a setting the
   * options hold none of (the {@code eventually} timeout, the seed), its own {@link #resolve()};
   * empty where there is none (a backend's setting on another backend, a default the reading code
   * decides).
   */
  public Optional<String> effective(ControlPlaneOptions options) {
    Object value = held == HELD_BY_NONE ? resolve() : held.apply(options).orElse(null);
    return Optional.ofNullable(value).map(type::cast).map(reading.text());
  }

  /** Its default value (null where the reading code decides the default). */
  T fallback() {
    return reading.defaultValue().get();
  }

  /** The value set for it, as written, and where: {@code system property P}. */
  record Written(String value, String where) {}

  /** {@link #read}'s text with the place it was written, for messages. */
  Optional<Written> written() {
    if (property != null) {
      Optional<String> value = nonBlank(System.getProperty(property));
      if (value.isPresent()) {
        return Optional.of(new Written(value.get(), "system property " + property));
      }
    }
    return nonBlank(System.getenv(variable))
        .map(v -> new Written(v, "environment variable " + variable));
  }

  private static Optional<String> nonBlank(String value) {
    return value == null || value.isBlank() ? Optional.empty() : Optional.of(value.trim());
  }

  @Override
  public String toString() {
    return property();
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof Setting<?> that && that.property().equals(property());
  }

  @Override
  public int hashCode() {
    return Objects.hash(property());
  }
}
