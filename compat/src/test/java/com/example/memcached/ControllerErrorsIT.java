package com.example.memcached;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import com.example.memcached.scenarios.MissingWatchScenario;
import com.example.memcached.scenarios.MisspeltBindingScenario;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;

/**
 * How broken operator projects fail, run through this JUnit's own launcher: alone, with a clear
 * message and a report, and with the JVM (this test) still alive.
 */
class ControllerErrorsIT {

  @Test
  void aForbiddenWatchFailsThatTestWithAReport() throws Exception {
    List<String> failures = run(MissingWatchScenario.class);

    assertThat(failures).singleElement().asString().contains("memcacheds").contains("watch");
    Path requests =
        Path.of(
            "target/kube-harness/reports",
            MissingWatchScenario.class.getName(),
            "createsADeployment",
            "api-requests.txt");
    assertThat(Files.readAllLines(requests))
        .anySatisfy(
            line ->
                assertThat(line)
                    .containsSubsequence(
                        ":controller-manager", "watch", "memcacheds", "-> 403  DENIED"));
  }

  @Test
  void aMisspeltBindingSubjectFailsWithBothNames() {
    assertThat(run(MisspeltBindingScenario.class))
        .singleElement()
        .asString()
        .contains("'controller-manger'")
        .contains("'controller-manager'");
  }

  /** Runs {@code scenario}; returns the messages (with causes, suppressed) of what failed. */
  private static List<String> run(Class<?> scenario) {
    List<String> failures = new ArrayList<>();
    TestExecutionListener listener =
        new TestExecutionListener() {
          @Override
          public void executionFinished(TestIdentifier id, TestExecutionResult result) {
            result.getThrowable().ifPresent(t -> failures.add(messages(t)));
          }
        };
    LauncherFactory.create()
        .execute(
            LauncherDiscoveryRequestBuilder.request().selectors(selectClass(scenario)).build(),
            listener);
    return failures;
  }

  private static String messages(Throwable t) {
    StringBuilder all = new StringBuilder();
    for (Throwable c = t; c != null; c = c.getCause()) {
      all.append(c.getMessage()).append('\n');
      for (Throwable s : c.getSuppressed()) {
        all.append(s.getMessage()).append('\n');
      }
    }
    return all.toString();
  }
}
