package io.github.kubeharness.cli;

import io.github.kubeharness.ControlPlaneOptions;
import io.github.kubeharness.KubeHarnessException;
import io.github.kubeharness.settings.HarnessSettings;
import io.github.kubeharness.settings.Setting;
import io.github.kubeharness.settings.SettingsResolver;
import java.util.LinkedHashMap;
import java.util.Map;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.ISetter;
import picocli.CommandLine.Model.OptionSpec;

/**
 * A command's options for the settings, made from {@link HarnessSettings#ALL}: each setting that
 * names a CLI option ({@link Setting#cliOption()}) becomes one, with the setting's doc, what it
 * takes and its default; its value goes into {@link ControlPlaneOptions} as the setting's value
 * written at that option ({@link SettingsResolver#resolve(ControlPlaneOptions, Map)}), read and
 * checked there like the system property would be. So {@code --help} cannot list a setting the
 * registry does not hold, nor miss one it gives an option.
 */
final class SettingOptions {

  // The values given on the command line, by setting, as written.
  private final Map<Setting<?>, String> given = new LinkedHashMap<>();

  /** Adds an option to {@code command} for every setting that names one. */
  void addTo(CommandSpec command) {
    for (Setting<?> setting : HarnessSettings.ALL) {
      setting.cliOption().ifPresent(name -> command.addOption(option(name, setting)));
    }
  }

  private OptionSpec option(String name, Setting<?> setting) {
    boolean flag = setting.type() == Boolean.class;
    return OptionSpec.builder(name)
        .type(String.class)
        // A flag alone means true; --reuse=false still says false.
        .arity(flag ? "0..1" : "1")
        .fallbackValue(flag ? "true" : "")
        .paramLabel(flag ? "true|false" : label(setting))
        .description(description(setting))
        // Read here as the setting reads it, so that a bad value is a usage error (exit 2, with
        // the usage) naming the option; the text itself goes on to ControlPlaneOptions.
        .converters(
            (CommandLine.ITypeConverter<String>)
                value -> {
                  try {
                    setting.parse(value, name);
                  } catch (KubeHarnessException e) {
                    throw new CommandLine.TypeConversionException(e.getMessage());
                  }
                  return value;
                })
        .setter(
            new ISetter() {
              @Override
              public <T> T set(T value) {
                if (value == null) {
                  given.remove(setting);
                } else {
                  given.put(setting, value.toString());
                }
                return null;
              }
            })
        .build();
  }

  /**
   * The options {@code builder} was told, the rest from the values given here (each named by its
   * option in messages), then from the settings.
   */
  ControlPlaneOptions resolve(ControlPlaneOptions.Builder builder) {
    Map<Setting<?>, Map.Entry<String, String>> written = new LinkedHashMap<>();
    given.forEach(
        (setting, value) ->
            written.put(setting, Map.entry(value, setting.cliOption().orElseThrow())));
    return SettingsResolver.resolve(builder.build(), written);
  }

  /** The value given for {@code setting}, as written, if any. */
  String given(Setting<?> setting) {
    return given.get(setting);
  }

  private static String label(Setting<?> setting) {
    String takes = setting.takes();
    return takes.contains(" ") ? "VALUE" : takes;
  }

  // The registry's Markdown, as a terminal shows it: link texts without their targets, no ticks.
  static String description(Setting<?> setting) {
    return plain(setting.doc())
        + ". Takes "
        + plain(setting.takes())
        + "; default "
        + plain(setting.defaultValue())
        + " (also "
        + setting.property()
        + " / "
        + setting.environmentVariable()
        + ").";
  }

  private static String plain(String markdown) {
    return markdown.replaceAll("\\[([^]]*)]\\([^)]*\\)", "$1").replace("`", "");
  }
}
