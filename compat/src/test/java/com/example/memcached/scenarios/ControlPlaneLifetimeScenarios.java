package com.example.memcached.scenarios;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.github.kubeharness.junit.ControllerTest;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;

/**
 * Two classes on two versions, run in order by ControlPlaneLifetimeIT: each records the pid of the
 * kube-apiserver it talks to, found among this JVM's processes by its port.
 */
public final class ControlPlaneLifetimeScenarios {

  /** The apiserver pid each class saw, in order. */
  public static final List<Long> PIDS = new ArrayList<>();

  /** Per class after the first: whether the first class's apiserver was alive when it ran. */
  public static final List<Boolean> FIRST_ALIVE = new ArrayList<>();

  private ControlPlaneLifetimeScenarios() {}

  static void record(KubernetesClient client) {
    if (!PIDS.isEmpty()) {
      FIRST_ALIVE.add(ProcessHandle.of(PIDS.get(0)).map(ProcessHandle::isAlive).orElse(false));
    }
    String port = "--secure-port=" + URI.create(client.getConfiguration().getMasterUrl()).getPort();
    PIDS.add(
        ProcessHandle.current()
            .descendants()
            .filter(p -> p.info().command().orElse("").endsWith("/kube-apiserver"))
            .filter(p -> List.of(p.info().arguments().orElse(new String[0])).contains(port))
            .findFirst()
            .orElseThrow()
            .pid());
  }

  @Order(1)
  @ControllerTest(kubernetesVersion = "1.36.3")
  public static class OnOneVersion {
    KubernetesClient client;

    @Test
    void records() {
      record(client);
    }
  }

  @Order(2)
  @ControllerTest(kubernetesVersion = "1.37.2")
  public static class OnAnother {
    KubernetesClient client;

    @Test
    void records() {
      record(client);
    }
  }
}
