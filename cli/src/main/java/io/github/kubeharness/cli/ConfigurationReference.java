package io.github.kubeharness.cli;

import io.github.kubeharness.Backend;
import io.github.kubeharness.settings.HarnessSettings;
import io.github.kubeharness.settings.Setting;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * The settings table of docs/configuration.md, generated from {@link HarnessSettings#ALL} ({@code
 * kube-harness env --markdown}): the docs cannot list a setting, a default or a way to set it that
 * the registry does not hold.
 */
public final class ConfigurationReference {

  private ConfigurationReference() {}

  /** The Markdown table, one row per setting, in the registry's order; ends with a newline. */
  public static String markdown() {
    StringBuilder table = new StringBuilder();
    table.append(
        "| system property | environment variable | also set by | backends | takes | default |"
            + " meaning |\n");
    table.append("|---|---|---|---|---|---|---|\n");
    for (Setting<?> setting : HarnessSettings.ALL) {
      table
          .append("| ")
          .append(setting.hasProperty() ? "`" + setting.property() + "`" : "—")
          .append(" | `")
          .append(setting.environmentVariable())
          .append("` | ")
          .append(alsoSetBy(setting))
          .append(" | ")
          .append(backends(setting))
          .append(" | ")
          .append(cell(setting.takes()))
          .append(" | ")
          .append(defaultValue(setting))
          .append(" | ")
          .append(cell(setting.doc()))
          .append(" |\n");
    }
    return table.toString();
  }

  private static String alsoSetBy(Setting<?> setting) {
    List<String> ways = new ArrayList<>();
    setting.annotationAttribute().ifPresent(a -> ways.add("`@ControllerTest(" + a + ")`"));
    // A backend's own option is a method of its record: kind().withImage(...).
    setting.builderMethods().stream()
        .map(m -> m.contains("().") ? "BackendOptions." + m : m)
        .forEach(m -> ways.add("`" + m + "(...)`"));
    setting.cliOption().ifPresent(o -> ways.add("`" + o + "`"));
    return ways.isEmpty() ? "—" : String.join(", ", ways);
  }

  private static String backends(Setting<?> setting) {
    return setting.backends().isEmpty()
        ? "all"
        : setting.backends().stream().map(Backend::settingValue).collect(Collectors.joining(", "));
  }

  private static String defaultValue(Setting<?> setting) {
    String text = setting.defaultValue();
    return text.contains("`") ? text : "`" + text + "`";
  }

  // A '|' inside a cell would end it: choices are written with it, so it is escaped.
  private static String cell(String text) {
    return text.replace("|", "\\|");
  }
}
