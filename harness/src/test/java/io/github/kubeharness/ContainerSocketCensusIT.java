package io.github.kubeharness;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.github.kubeharness.KnownServers.Rule;
import io.github.kubeharness.ProcSockets.OpenSocket;
import io.github.kubeharness.launch.ControlPlanes;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The socket census of the container backend, in both network modes (issue 43): the sockets of
 * every process of the run's containers (found through {@code docker inspect}'s pid and its process
 * tree in {@code /proc}; on the host network they are the host's sockets, on a bridge network each
 * container's own, reached at its address on the Docker network), the ports Docker publishes on the
 * host ({@code docker-proxy}), and the fault proxy in this JVM with a {@code stale()} rule holding
 * a snapshot of Secrets. The second local user gets nothing from any of them with no credentials,
 * {@code Bearer x} or a self-signed certificate; the run's own credentials read from each.
 */
class ContainerSocketCensusIT {

  @ParameterizedTest
  @EnumSource(NetworkMode.class)
  void everySocketOfAContainerRunRefusesASecondLocalUser(NetworkMode network, @TempDir Path own)
      throws Exception {
    long jvm = ProcessHandle.current().pid();
    Set<Long> before = SocketCensusIT.inodes(ProcSockets.accepting(ProcSockets.processTree(jvm)));
    Set<String> containersBefore = DockerContainers.ids();
    try (ControlPlane controlPlane =
        ControlPlanes.create(
            ControlPlaneOptions.builder()
                .withBackend(BackendOptions.container().withNetwork(network))
                .withProfile(Profile.STANDARD)
                .build())) {
      controlPlane.start();
      String namespace = "census";
      try (KubernetesClient admin = controlPlane.newClient()) {
        SocketCensusIT.withASecret(admin, namespace);
      }
      Set<String> ours = DockerContainers.ids();
      ours.removeAll(containersBefore);
      assertThat(ours).as("the run's containers").hasSizeGreaterThanOrEqualTo(3);

      Map<String, String> addressByNamespace = new HashMap<>();
      List<OpenSocket> containerSockets = new ArrayList<>();
      for (String id : ours) {
        long pid = Lockdown.containerPid(id);
        address(id).ifPresent(ip -> addressByNamespace.put(ProcSockets.networkNamespace(pid), ip));
        containerSockets.addAll(ProcSockets.accepting(ProcSockets.processTree(pid)));
      }
      List<OpenSocket> sockets = new ArrayList<>(containerSockets);
      sockets.addAll(publishedBy(addressByNamespace.values()));
      ProcSockets.accepting(ProcSockets.processTree(jvm)).stream()
          .filter(s -> !before.contains(s.inode()))
          .forEach(sockets::add);

      List<String> ownCertificate =
          CensusCredentials.ownClientCertificate(controlPlane.kubeconfig(), own);
      List<Rule> servers =
          List.of(
              KnownServers.apiServer(ownCertificate),
              KnownServers.etcd(),
              KnownServers.controlPlaneComponents(ownCertificate));
      SocketCensus census =
          SocketCensus.of("container-" + network.name().toLowerCase(java.util.Locale.ROOT))
              .reachingContainersBy(netns -> Optional.ofNullable(addressByNamespace.get(netns)))
              .knowing(servers.toArray(Rule[]::new))
              .knowing(
                  KnownServers.publishedPorts(
                      containerSockets,
                      servers,
                      netns -> Optional.ofNullable(addressByNamespace.get(netns))));
      census.report(census.take(sockets));
    }
  }

  /** The container's address on its Docker network (none on the host network). */
  private static Optional<String> address(String containerId) throws Exception {
    Process inspect =
        new ProcessBuilder(
                "docker",
                "inspect",
                "--format",
                "{{range .NetworkSettings.Networks}}{{.IPAddress}} {{end}}",
                containerId)
            .start();
    String out = new String(inspect.getInputStream().readAllBytes()).trim();
    inspect.waitFor();
    return out.isEmpty() ? Optional.empty() : Optional.of(out.split("\\s+")[0]);
  }

  /** The sockets of the {@code docker-proxy} processes that forward to {@code addresses}. */
  private static List<OpenSocket> publishedBy(java.util.Collection<String> addresses) {
    List<OpenSocket> sockets = new ArrayList<>();
    for (long pid : ProcSockets.processTree(1)) {
      if (ProcSockets.processName(pid).equals("docker-proxy")
          && addresses.contains(KnownServers.flag(ProcSockets.commandLine(pid), "container-ip"))) {
        sockets.addAll(ProcSockets.accepting(pid));
      }
    }
    return sockets;
  }
}
