package io.github.kubeharness;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.kubeharness.launch.ControlPlanes;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The container backend on a Docker engine without its default bridge network ({@code dockerd
 * --bridge=none}, as on this machine). kube-harness's bridge mode does not need that network (it
 * runs the containers on a network of its own); Testcontainers does, to find the Docker host's
 * address when {@code /.dockerenv} makes it think the JVM runs inside a container, and its 404
 * ({@code network bridge not found}) is named with the fix. On an engine with the bridge, or
 * outside a container, the same start succeeds, and the tests check that instead.
 */
class DockerBridgeIT {

  @Test
  void bridgeNetworkingRunsOnANetworkOfItsOwnWithOrWithoutTheDefaultBridge() throws Exception {
    Set<String> before = DockerContainers.ids();
    try (ControlPlane controlPlane =
        ControlPlanes.create(
            ControlPlaneOptions.builder()
                .withBackend(BackendOptions.container().withNetwork(NetworkMode.BRIDGE))
                .withProfile(Profile.MINIMAL)
                .build())) {
      controlPlane.start();
      Set<String> ours = DockerContainers.ids();
      ours.removeAll(before);
      assertThat(ours).hasSize(2);
      for (String id : ours) {
        assertThat(networks(id))
            .as("networks of %s", Lockdown.containerImage(id))
            .hasSize(1)
            .doesNotContain("bridge", "host");
      }
      try (var client = controlPlane.newClient()) {
        assertThat(client.namespaces().withName("default").get()).isNotNull();
      }
    }
  }

  @Test
  void testcontainersLookingForTheDefaultBridgeIsNamedWithTheFix() throws Exception {
    Map<String, String> withoutOverride = new HashMap<>();
    withoutOverride.put("TESTCONTAINERS_HOST_OVERRIDE", null);
    String outcome = DockerBadInputIT.outcomeInChild(Backend.CONTAINER, withoutOverride, List.of());
    if (!engineHasDefaultBridge() && Files.exists(Path.of("/.dockerenv"))) {
      assertThat(outcome)
          .contains(
              "The container backend is not available: Docker is not reachable: the Docker engine"
                  + " at unix:///var/run/docker.sock has no default bridge network ('bridge':"
                  + " Docker answered 404 network bridge not found), which Testcontainers looks up"
                  + " because /.dockerenv makes it think this JVM runs inside a container")
          .contains(
              "Set TESTCONTAINERS_HOST_OVERRIDE=127.0.0.1 (the engine is on this machine), or give"
                  + " the engine its default bridge (start dockerd without --bridge=none)");
    } else {
      assertThat(outcome).isEqualTo("STARTED");
    }
  }

  private static List<String> networks(String containerId) throws Exception {
    Process inspect =
        new ProcessBuilder(
                "docker",
                "inspect",
                "--format",
                "{{range $name, $n := .NetworkSettings.Networks}}{{$name}} {{end}}",
                containerId)
            .start();
    String out = new String(inspect.getInputStream().readAllBytes()).trim();
    assertThat(inspect.waitFor(30, TimeUnit.SECONDS)).isTrue();
    return List.of(out.split("\\s+"));
  }

  static boolean engineHasDefaultBridge() throws Exception {
    Process inspect =
        new ProcessBuilder("docker", "network", "inspect", "bridge")
            .redirectErrorStream(true)
            .start();
    inspect.getInputStream().readAllBytes();
    assertThat(inspect.waitFor(30, TimeUnit.SECONDS)).isTrue();
    return inspect.exitValue() == 0;
  }
}
