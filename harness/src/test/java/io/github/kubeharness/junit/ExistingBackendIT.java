package io.github.kubeharness.junit;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.github.kubeharness.ChildJvm;
import io.github.kubeharness.ControlPlane;
import io.github.kubeharness.ControlPlaneOptions;
import io.github.kubeharness.junit.scenarios.ExistingClusterScenario;
import io.github.kubeharness.launch.ControlPlanes;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The existing backend on this machine: a local control plane plays "a cluster somebody else
 * started" (as kind would), and a separate JVM runs a @ControllerTest class against it through its
 * kubeconfig — picked by envtest's USE_EXISTING_CLUSTER, or by kubeharness.backend.
 */
class ExistingBackendIT {

  static ControlPlane cluster;
  static KubernetesClient admin;

  @BeforeAll
  static void startACluster() {
    cluster = ControlPlanes.local(ControlPlaneOptions.defaults());
    cluster.start();
    admin = cluster.newClient();
  }

  @AfterAll
  static void stop() {
    admin.close();
    cluster.stop();
  }

  @Test
  void useExistingClusterRunsTheClassOnTheKubeconfigsCluster() throws Exception {
    String output = runScenario(Map.of("USE_EXISTING_CLUSTER", "true"), List.of());

    assertThat(output).contains("backend auto -> existing: USE_EXISTING_CLUSTER=true");
    assertThat(output).contains("RESULT SUCCESSFUL runsOnTheClusterTheKubeconfigNames()");
    assertTheClassRanHere();
  }

  @Test
  void theBackendSettingSelectsItToo() throws Exception {
    String output = runScenario(Map.of(), List.of("-Dkubeharness.backend=existing"));

    assertThat(output).contains("RESULT SUCCESSFUL runsOnTheClusterTheKubeconfigNames()");
    assertTheClassRanHere();
  }

  private String runScenario(Map<String, String> env, List<String> jvmOptions) throws Exception {
    Map<String, String> environment = new java.util.HashMap<>(env);
    environment.put("KUBECONFIG", cluster.kubeconfigFile().toString());
    // Whatever backend this JVM's environment picks (CI runs the suite again on containers) is
    // not the child's: it must come from env / jvmOptions alone.
    environment.putIfAbsent("KUBE_HARNESS_BACKEND", null);
    List<String> options = new java.util.ArrayList<>(jvmOptions);
    options.add("-Dexpected.server=" + cluster.apiServerUrl());
    try (ChildJvm child =
        ChildJvm.start(
            environment,
            options,
            ScenarioMain.class.getName(),
            ExistingClusterScenario.class.getName())) {
      child.awaitLine(l -> l.equals("DONE"), Duration.ofMinutes(2));
      return child.readToEnd(Duration.ofSeconds(30));
    }
  }

  /** The CRD and the test's namespace (being deleted) are in the cluster this JVM started. */
  private static void assertTheClassRanHere() {
    assertThat(
            admin
                .apiextensions()
                .v1()
                .customResourceDefinitions()
                .withName("widgets.test.kubeharness.io")
                .get())
        .isNotNull();
    assertThat(admin.namespaces().list().getItems())
        .anySatisfy(
            ns ->
                assertThat(ns.getMetadata().getName())
                    .startsWith("existingclusterscenario-runsonthecluster"));
  }
}
