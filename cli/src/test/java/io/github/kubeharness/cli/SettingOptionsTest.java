package io.github.kubeharness.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.kubeharness.settings.HarnessSettings;
import io.github.kubeharness.settings.Setting;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The CLI's options for settings are made from the registry: {@code kube-harness up --help} lists
 * an option for everything {@code @ControllerTest} can set (but what the registry says the CLI
 * cannot take, and why), and none that the registry does not hold.
 */
class SettingOptionsTest {

  // What up has of its own: its run's plumbing, not settings.
  private static final List<String> UP_ONLY =
      List.of("--help", "--version", "--kubeconfig", "--install", "--run");

  @Test
  void upHasAnOptionForEverySettingTheAnnotationCanSet() {
    Set<String> options = optionsOf("up");
    for (Setting<?> setting : HarnessSettings.ALL) {
      if (setting.annotationAttribute().isEmpty() || setting.notOnCliBecause().isPresent()) {
        continue;
      }
      assertThat(setting.cliOption())
          .as(
              setting.property()
                  + " is set by @ControllerTest("
                  + setting.annotationAttribute().get()
                  + "): give it .cli(\"--...\") in HarnessSettings.ALL, or .notOnCli(why)")
          .isPresent();
      assertThat(options).as("up --help").contains(setting.cliOption().get());
    }
  }

  @Test
  void upsOtherOptionsAreTheRegistrysOrItsOwn() {
    Set<String> fromRegistry = new LinkedHashSet<>();
    HarnessSettings.ALL.forEach(s -> s.cliOption().ifPresent(fromRegistry::add));
    Set<String> options = optionsOf("up");
    options.removeAll(UP_ONLY);
    assertThat(options).isEqualTo(fromRegistry);
  }

  @Test
  void everyCommandTakesTheSettingsOptions() {
    for (String command : List.of("provision", "up", "env", "down")) {
      Set<String> options = optionsOf(command);
      HarnessSettings.ALL.forEach(
          s -> s.cliOption().ifPresent(o -> assertThat(options).as(command).contains(o)));
    }
  }

  @Test
  void aValueIsReadAsTheSettingReadsItAndNamesTheOption() {
    Run bad = run("env", "--profile", "tiny");
    assertThat(bad.code()).as("a usage error").isEqualTo(2);
    assertThat(bad.err())
        .contains(
            "Invalid value for option '--profile'",
            "'tiny' in --profile",
            "minimal, standard, simulated",
            "Usage: kube-harness env");
    assertThat(run("up", "--reuse=maybe").err()).contains("'maybe' in --reuse", "true or false");
    // Given on the command line, a value wins over the environment (CI exports
    // KUBE_HARNESS_NETWORK=host); a flag alone means true.
    Run good = run("env", "--network", "bridge", "--reuse", "--backend", "kind");
    assertThat(good.code()).isZero();
    assertThat(good.out()).contains("KUBE_HARNESS_REUSE=true", "KUBE_HARNESS_BACKEND=kind");
    Run container = run("env", "--network", "bridge", "--backend", "container");
    assertThat(container.out()).contains("KUBE_HARNESS_NETWORK=bridge\n".translateEscapes());
    assertThat(run("env", "--reuse=false").out()).contains("KUBE_HARNESS_REUSE=false");
    // A setting the backend's options do not hold shows the value given all the same.
    assertThat(run("env", "--backend", "local", "--network", "bridge").out())
        .contains("KUBE_HARNESS_NETWORK=bridge  # default: bridge");
  }

  @Test
  void whatTheBackendCannotDoIsRefusedNamingTheCommand() {
    Run run = run("up", "--backend", "kind", "--profile", "minimal");
    assertThat(run.code()).isEqualTo(1);
    assertThat(run.err()).contains("up: the minimal profile cannot run on the kind backend");
  }

  private static Set<String> optionsOf(String command) {
    Run help = run(command, "--help");
    assertThat(help.code()).isZero();
    // Option names begin a column of the help's option list.
    Matcher names = Pattern.compile("(?m)^\\s+(?:-\\w, )?(--[a-z-]+)").matcher(help.out());
    Set<String> options = new LinkedHashSet<>();
    while (names.find()) {
      options.add(names.group(1));
    }
    return options;
  }

  private record Run(int code, String out, String err) {}

  private static Run run(String... args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    PrintStream original = System.err;
    int code;
    try {
      System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
      code = new KubeHarnessCli(new PrintStream(out, true, StandardCharsets.UTF_8)).run(args);
    } finally {
      System.setErr(original);
    }
    return new Run(
        code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
  }
}
