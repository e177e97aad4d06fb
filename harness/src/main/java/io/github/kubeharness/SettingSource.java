package io.github.kubeharness;

import java.util.Map;
import java.util.Optional;

/**
 * Where the entry points read settings from, highest first: values given as written by an entry
 * point of its own (the CLI's options, each with the place it was written, for messages), then the
 * system property, then the environment variable, then the setting's default. An explicit option in
 * code wins over all of them ({@link #resolve(Setting, Object)}).
 */
final class SettingSource {

  /** Nothing given: the system properties and the environment only. */
  static final SettingSource ENVIRONMENT = new SettingSource(Map.of());

  /** A value as written, and where: {@code --profile}. */
  record Given(String value, String source) {}

  private final Map<String, Given> given;

  SettingSource(Map<String, Given> given) {
    this.given = Map.copyOf(given);
  }

  /** The value set for {@code setting}, read; fails naming where it was written. */
  <T> Optional<T> read(Setting<T> setting) {
    Given value = given.get(setting.property());
    return value != null
        ? Optional.of(setting.parse(value.value(), value.source()))
        : setting.read();
  }

  /**
   * The system property or environment variable {@link #read} took {@code setting} from, as
   * written, for messages: {@code environment variable KUBE_HARNESS_BACKEND=container}; empty when
   * it was given by an entry point or is not set.
   */
  Optional<String> setOutside(Setting<?> setting) {
    if (given.containsKey(setting.property())) {
      return Optional.empty();
    }
    return Settings.written(setting.property()).map(w -> w.where() + "=" + w.value());
  }

  /** The value set for {@code setting}, else its default. */
  <T> T resolve(Setting<T> setting) {
    return read(setting).orElseGet(setting::typedDefault);
  }

  /** {@code explicit} when not null (set in code or by an attribute), else {@link #resolve}. */
  <T> T resolve(Setting<T> setting, T explicit) {
    return explicit != null ? explicit : resolve(setting);
  }

  /** {@link #resolve} of the registry's entry {@code property} of type {@code type}. */
  <T> T resolve(String property, Class<T> type) {
    return resolve(Settings.entry(property, type));
  }

  /** {@link #read} of the registry's entry {@code property} of type {@code type}. */
  <T> Optional<T> read(String property, Class<T> type) {
    return read(Settings.entry(property, type));
  }
}
