package io.github.kubeharness;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.kubeharness.KnownServers.Rule;
import io.github.kubeharness.ProcSockets.OpenSocket;
import io.github.kubeharness.launch.ControlPlanes;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The socket census of the kind backend (issue 43): every process of the run's node container (its
 * process tree in {@code /proc}: systemd, containerd, the kubelet, the static control-plane pods,
 * kube-proxy, CoreDNS), each network namespace reached at its own address (the node's on the Docker
 * network, a pod's inside the node), the API server's port Docker publishes on the host, and the
 * Unix sockets in the node's file system. The second local user gets nothing from any of them; the
 * run's own credentials (the kubeconfig kind wrote, or the component's own certificate) read from
 * each. Tagged "kind": it needs the node image ({@code make kind-image}); {@code make test-kind}
 * runs it.
 */
@Tag("kind")
class KindSocketCensusIT {

  @Test
  void everySocketOfAKindRunRefusesASecondLocalUser(@TempDir Path own) throws Exception {
    Set<String> before = DockerContainers.ids();
    try (ControlPlane controlPlane =
        ControlPlanes.create(ControlPlaneOptions.builder().withBackend(Backend.KIND).build())) {
      controlPlane.start();
      Set<String> nodes = DockerContainers.ids();
      nodes.removeAll(before);
      assertThat(nodes).as("the run's kind node").isNotEmpty();

      List<OpenSocket> nodeSockets = new ArrayList<>();
      List<Long> processes = new ArrayList<>();
      for (String node : nodes) {
        processes.addAll(ProcSockets.processTree(Lockdown.containerPid(node)));
      }
      nodeSockets.addAll(ProcSockets.accepting(processes));
      Map<String, String> addressByNamespace = addresses(processes);
      List<OpenSocket> sockets = new ArrayList<>(nodeSockets);
      for (long pid : ProcSockets.processTree(1)) {
        if (ProcSockets.processName(pid).equals("docker-proxy")
            && addressByNamespace.containsValue(
                KnownServers.flag(ProcSockets.commandLine(pid), "container-ip"))) {
          sockets.addAll(ProcSockets.accepting(pid));
        }
      }

      List<String> ownCertificate =
          CensusCredentials.ownClientCertificate(controlPlane.kubeconfig(), own);
      List<Rule> servers =
          List.of(
              KnownServers.apiServer(ownCertificate),
              KnownServers.etcd(),
              KnownServers.controlPlaneComponents(ownCertificate),
              KnownServers.kindNode(ownCertificate),
              KnownServers.unixSocketsInContainers());
      SocketCensus census =
          SocketCensus.of("kind")
              .reachingContainersBy(netns -> Optional.ofNullable(addressByNamespace.get(netns)))
              .knowing(servers.toArray(Rule[]::new))
              .knowing(
                  KnownServers.publishedPorts(
                      nodeSockets,
                      servers,
                      netns -> Optional.ofNullable(addressByNamespace.get(netns))));
      census.report(census.take(sockets));
    }
  }

  /**
   * Each network namespace of {@code processes} with its IPv4 address (the node's on the Docker
   * network, a pod's on the pod network), read inside it with {@code ip}.
   */
  private static Map<String, String> addresses(List<Long> processes) throws Exception {
    Map<String, String> byNamespace = new HashMap<>();
    for (long pid : processes) {
      String netns = ProcSockets.networkNamespace(pid);
      if (byNamespace.containsKey(netns) || netns.equals("?")) {
        continue;
      }
      Process ip =
          new ProcessBuilder(
                  "nsenter",
                  "-t",
                  Long.toString(pid),
                  "-n",
                  "ip",
                  "-4",
                  "-o",
                  "addr",
                  "show",
                  "scope",
                  "global")
              .redirectErrorStream(true)
              .start();
      String out = new String(ip.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      ip.waitFor(10, TimeUnit.SECONDS);
      out.lines()
          .map(l -> l.replaceAll(".* inet ([0-9.]+)/.*", "$1"))
          .filter(a -> a.matches("[0-9.]+"))
          .findFirst()
          .ifPresent(a -> byNamespace.put(netns, a));
    }
    return byNamespace;
  }
}
