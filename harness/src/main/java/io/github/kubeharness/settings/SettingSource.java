package io.github.kubeharness.settings;

import java.util.Map;
import java.util.Optional;

/**
 * Where {@link SettingsResolver} reads settings from, highest first: values given as written by an
 * entry point of its own (the CLI's options, each with the place it was written, for messages),
 * then the system property, then the environment variable. What the code asked wins over all of
 * them; the setting's default comes last.
 */
final class SettingSource {

  /** Nothing given: the system properties and the environment only. */
  static final SettingSource ENVIRONMENT = new SettingSource(Map.of());

  /** A value as written, and where: {@code --profile}. */
  record Given(String value, String source) {}

  private final Map<Setting<?>, Given> given;

  SettingSource(Map<Setting<?>, Given> given) {
    this.given = Map.copyOf(given);
  }

  /** The value set for {@code setting}, read; fails naming where it was written. */
  <T> Optional<T> read(Setting<T> setting) {
    Given value = given.get(setting);
    return value != null
        ? Optional.of(setting.parse(value.value(), value.source()))
        : setting.read();
  }

  /** The value set for {@code setting}, else its default. */
  <T> T resolve(Setting<T> setting) {
    return read(setting).orElseGet(setting::fallback);
  }

  /**
   * The system property or environment variable {@link #read} took {@code setting} from, as
   * written, for messages: {@code environment variable KUBE_HARNESS_BACKEND=container}; empty when
   * it was given by an entry point or is not set.
   */
  Optional<String> setOutside(Setting<?> setting) {
    if (given.containsKey(setting)) {
      return Optional.empty();
    }
    return setting.written().map(w -> w.where() + "=" + w.value());
  }
}
