package com.example.memcached;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import com.example.memcached.scenarios.ControlPlaneLifetimeScenarios;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.ClassOrderer;
import org.junit.jupiter.api.Test;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;

/**
 * On this JUnit, the harness jar's launcher listener is found and works: in a run of two classes on
 * two versions, the first class's control plane has stopped before the second class runs.
 */
class ControlPlaneLifetimeIT {

  @Test
  void aControlPlaneNoLaterClassUsesStopsBeforeTheNextClass() {
    ControlPlaneLifetimeScenarios.PIDS.clear();
    ControlPlaneLifetimeScenarios.FIRST_ALIVE.clear();
    List<String> failures = new ArrayList<>();
    LauncherFactory.create()
        .execute(
            LauncherDiscoveryRequestBuilder.request()
                .selectors(
                    selectClass(ControlPlaneLifetimeScenarios.OnAnother.class),
                    selectClass(ControlPlaneLifetimeScenarios.OnOneVersion.class))
                .configurationParameter(
                    "junit.jupiter.testclass.order.default",
                    ClassOrderer.OrderAnnotation.class.getName())
                .build(),
            new TestExecutionListener() {
              @Override
              public void executionFinished(TestIdentifier id, TestExecutionResult result) {
                result.getThrowable().ifPresent(t -> failures.add(id.getDisplayName() + ": " + t));
              }
            });
    assertThat(failures).isEmpty();
    assertThat(ControlPlaneLifetimeScenarios.PIDS).hasSize(2);
    // The first class's apiserver had gone before the second class ran.
    assertThat(ControlPlaneLifetimeScenarios.FIRST_ALIVE).containsExactly(false);
  }
}
