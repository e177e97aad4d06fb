package io.github.kubeharness;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.kubeharness.launch.ControlPlanes;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The container backend's lockdown, in both network modes, read from the outside: Docker publishes
 * nothing beyond 127.0.0.1 ({@code docker inspect}, {@code /proc/net}), on the host's network every
 * container listens on loopback only, etcd answers only the run's etcd certificate, the API server
 * no one without an identity, and the second local user gets nothing. Bridge mode is the default
 * wherever Docker has a bridge (laptops, GitHub runners): Testcontainers creates its own network
 * for it, here too.
 */
class ContainerLockdownIT {

  @ParameterizedTest
  @EnumSource(NetworkMode.class)
  void nothingIsOpenBeyondTheRunsCredentials(NetworkMode network) throws Exception {
    Set<String> before = DockerContainers.ids();
    try (ControlPlane controlPlane =
        ControlPlanes.create(
            ControlPlaneOptions.builder()
                .withBackend(BackendOptions.container().withNetwork(network))
                .withProfile(Profile.STANDARD)
                .build())) {
      controlPlane.start();
      Set<String> ours = DockerContainers.ids();
      ours.removeAll(before);
      Map<String, String> byImage = new HashMap<>();
      for (String id : ours) {
        byImage.put(Lockdown.containerImage(id).replaceAll(".*/|:.*", ""), id);
      }
      assertThat(byImage).containsKeys("etcd", "kube-apiserver", "kube-controller-manager");

      List<Integer> etcdPorts = new ArrayList<>();
      for (Map.Entry<String, String> container : byImage.entrySet()) {
        String id = container.getValue();
        List<String> published = Lockdown.publishedPorts(id);
        if (network == NetworkMode.HOST) {
          assertThat(Lockdown.containerNetworkMode(id)).isEqualTo("host");
          assertThat(published).as(container.getKey() + " publishes").isEmpty();
          long pid = Lockdown.containerPid(id);
          Lockdown.assertListensOnLoopbackOnly(container.getKey(), pid);
          if (container.getKey().equals("etcd")) {
            etcdPorts.addAll(Lockdown.listeningPorts(pid));
          }
        } else {
          assertThat(published)
              .as(container.getKey() + " publishes on 127.0.0.1 only")
              .allMatch(p -> p.contains(" -> 127.0.0.1:"));
          for (String port : published) {
            int hostPort = Integer.parseInt(port.substring(port.lastIndexOf(':') + 1));
            assertThat(Lockdown.listenersOnPort(hostPort))
                .as("what listens on the host for " + container.getKey() + "'s " + port)
                .isNotEmpty()
                .allMatch(Lockdown::isLoopback);
            if (container.getKey().equals("etcd")) {
              etcdPorts.add(hostPort);
            }
          }
        }
      }
      assertThat(etcdPorts).as("etcd's ports reachable from the host").isNotEmpty();
      String intruder = controlPlane.addUser("etcd-intruder", List.of()).kubeconfig();
      // The run's own etcd credentials, for the controls: read from etcd's process in its
      // container (on the host's network or not).
      EtcdAccess runs = EtcdAccess.of(Lockdown.containerPid(byImage.get("etcd")));
      for (int port : etcdPorts) {
        Lockdown.assertEtcdRefusesStrangers(runs, port, intruder);
      }
      Lockdown.assertApiServerRefusesTheStranger(controlPlane.apiServerUrl());
      Lockdown.assertStrangerReadsNothingIn(controlPlane.logDirectory().orElseThrow());
    }
  }
}
