package io.github.kubeharness;

import io.github.kubeharness.ProcSockets.OpenSocket;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The servers the census knows how to probe, each a {@link Rule}: which process and socket it is,
 * and the request that would read something there. A socket no rule claims is an unknown socket,
 * which fails the census: nothing listens that nobody has looked at.
 */
public final class KnownServers {

  /** etcd's range request for every key under /registry, as an intruder would send it. */
  static final String ETCD_RANGE_ALL = "{\"key\":\"L3JlZ2lzdHJ5\",\"range_end\":\"L3JlZ2lzdHJ6\"}";

  private KnownServers() {}

  /** Claims a socket (reached as {@code reach}) with a probe, or not. */
  @FunctionalInterface
  public interface Rule {
    Optional<SocketProbe> probe(OpenSocket socket, SocketReach reach);
  }

  /** kube-apiserver: a list of every Secret; the control with the run's admin certificate. */
  public static Rule apiServer(List<String> ownCertificate) {
    return (socket, reach) ->
        socket.process().equals("kube-apiserver") && socket.isTcp()
            ? Optional.of(
                SocketProbe.of(
                    "kube-apiserver", reach, "/api/v1/secrets", List.of(), ownCertificate))
            : Optional.empty();
  }

  /**
   * etcd: its clients' Unix socket (plain gRPC gateway: the keyspace), its client port, its peer
   * port (the member list) and a metrics port, told apart by its own flags; the controls present
   * etcd's own certificate, read from its flags (through {@code /proc/<pid>/root} for a container's
   * files).
   */
  public static Rule etcd() {
    return (socket, reach) -> {
      if (!socket.process().equals("etcd")) {
        return Optional.empty();
      }
      List<String> range = List.of("-X", "POST", "-d", ETCD_RANGE_ALL);
      if (socket.isUnix()) {
        return Optional.of(
            SocketProbe.of("etcd clients (Unix socket)", reach, "/v3/kv/range", range, List.of()));
      }
      if (!socket.isTcp()) {
        return Optional.empty();
      }
      String flags = ProcSockets.commandLine(socket.pid());
      if (portIn(flag(flags, "listen-metrics-urls"), socket.port())) {
        return Optional.of(
            SocketProbe.of(
                "etcd metrics",
                reach.withScheme(scheme(flag(flags, "listen-metrics-urls"))),
                "/metrics",
                List.of(),
                List.of()));
      }
      String root = "/proc/" + socket.pid() + "/root";
      if (portIn(flag(flags, "listen-peer-urls"), socket.port())) {
        return Optional.of(
            SocketProbe.of(
                "etcd peer",
                // etcd checks a peer certificate's addresses against the caller's: 127.0.0.1.
                reach.ownFromInside(socket),
                "/members",
                List.of("--http1.1"),
                List.of(
                    "--cert", root + flag(flags, "peer-cert-file"),
                    "--key", root + flag(flags, "peer-key-file"))));
      }
      return Optional.of(
          SocketProbe.of(
              "etcd clients",
              reach,
              "/v3/kv/range",
              range,
              List.of(
                  "--cert", root + flag(flags, "cert-file"),
                  "--key", root + flag(flags, "key-file"))));
    };
  }

  /** kube-controller-manager and kube-scheduler: their metrics (authenticated, authorized). */
  public static Rule controlPlaneComponents(List<String> ownCertificate) {
    return (socket, reach) ->
        List.of("kube-controller-manager", "kube-scheduler").contains(socket.process())
                && socket.isTcp()
            ? Optional.of(
                SocketProbe.of(socket.process(), reach, "/metrics", List.of(), ownCertificate))
            : Optional.empty();
  }

  /**
   * KWOK's own server (plain HTTP, no credential to present): its goroutine dump, what KWOK's
   * defaults gave any local user (stacks of every goroutine, with their arguments); kube-harness
   * turns those handlers off. Its {@code /metrics} stays open and carries only runtime figures
   * ({@code KwokServerIT} reads them as the second user). The control is KWOK's readiness probe,
   * {@code /healthz}: the socket answers, and is KWOK's.
   */
  public static Rule kwok() {
    return (socket, reach) -> {
      if (!socket.process().startsWith("kwok") || !socket.isTcp()) {
        return Optional.empty();
      }
      SocketReach http = reach.withScheme("http");
      SocketProbe health = SocketProbe.of("kwok", http, "/healthz", List.of(), List.of());
      return Optional.of(
          SocketProbe.of("kwok", http, "/debug/pprof/goroutine?debug=2", List.of(), List.of())
              .withControl(health::asOwner));
    };
  }

  /**
   * The fault proxy in this JVM, on {@code port}: {@code path} (a list a stale rule covers, read
   * once by the control so that the rule holds a snapshot to give away).
   */
  public static Rule faultProxy(int port, String path, List<String> ownCertificate) {
    return (socket, reach) ->
        socket.pid() == ProcessHandle.current().pid() && socket.isTcp() && socket.port() == port
            ? Optional.of(SocketProbe.of("fault proxy", reach, path, List.of(), ownCertificate))
            : Optional.empty();
  }

  /**
   * The webhook server in this JVM, on {@code port}: an AdmissionReview posted to {@code path}; its
   * control is the API server's own call ({@code apiServerCalls}), the one caller it must admit.
   */
  public static Rule webhookServer(
      int port, String path, String admissionReview, Callable<SocketProbe.Answer> apiServerCalls) {
    return (socket, reach) ->
        socket.pid() == ProcessHandle.current().pid() && socket.isTcp() && socket.port() == port
            ? Optional.of(
                SocketProbe.of(
                        "webhook server",
                        reach,
                        path,
                        List.of(
                            "-X",
                            "POST",
                            "-H",
                            "Content-Type: application/json",
                            "-d",
                            admissionReview),
                        List.of())
                    .withControl(apiServerCalls))
            : Optional.empty();
  }

  /**
   * What a kind node runs besides the control plane: the kubelet (its API: the pods, authenticated
   * and authorized by the API server; its health port), kube-proxy (metrics, health) and CoreDNS
   * (metrics, health, readiness, DNS over TCP), each by its own port.
   */
  public static Rule kindNode(List<String> ownCertificate) {
    return (socket, reach) -> {
      if (!socket.isTcp()) {
        return Optional.empty();
      }
      SocketReach http = reach.withScheme("http");
      return switch (socket.process() + ":" + socket.port()) {
        case "kubelet:10250" ->
            Optional.of(SocketProbe.of("kubelet", reach, "/pods", List.of(), ownCertificate));
        case "kubelet:10248" ->
            Optional.of(SocketProbe.of("kubelet health", http, "/healthz", List.of(), List.of()));
        case "kube-proxy:10249" ->
            Optional.of(
                SocketProbe.of("kube-proxy metrics", http, "/metrics", List.of(), List.of()));
        case "kube-proxy:10256" ->
            Optional.of(
                SocketProbe.of("kube-proxy health", http, "/healthz", List.of(), List.of()));
        case "coredns:9153" ->
            Optional.of(SocketProbe.of("coredns metrics", http, "/metrics", List.of(), List.of()));
        case "coredns:8080" ->
            Optional.of(SocketProbe.of("coredns health", http, "/health", List.of(), List.of()));
        case "coredns:8181" ->
            Optional.of(SocketProbe.of("coredns ready", http, "/ready", List.of(), List.of()));
        case "coredns:53" -> Optional.of(SocketProbe.connection("coredns DNS (TCP)", reach));
        default ->
            socket.process().equals("containerd")
                ? Optional.of(SocketProbe.connection("containerd CRI streaming", reach))
                : Optional.empty();
      };
    };
  }

  /**
   * A Unix socket in a container's file system (containerd's gRPC, systemd's and journald's): no
   * HTTP to speak, so a stranger must not even connect; the owner reaches it through {@code
   * /proc/<pid>/root}.
   */
  public static Rule unixSocketsInContainers() {
    return (socket, reach) ->
        socket.protocol().equals("unix")
                && !socket.path().startsWith("@")
                && reach.strangerArgs().get(1).startsWith("/proc/")
            ? Optional.of(SocketProbe.connection(socket.process() + " (Unix socket)", reach))
            : Optional.empty();
  }

  /**
   * A port Docker publishes on the host ({@code docker-proxy -container-ip IP -container-port P}):
   * the service of the container's socket behind it, reached at the published address.
   */
  public static Rule publishedPorts(
      List<OpenSocket> containerSockets,
      List<Rule> rules,
      java.util.function.Function<String, Optional<String>> containerAddress) {
    return (socket, reach) -> {
      if (!socket.process().equals("docker-proxy")) {
        return Optional.empty();
      }
      String flags = ProcSockets.commandLine(socket.pid());
      String ip = flag(flags, "container-ip");
      String port = flag(flags, "container-port");
      for (OpenSocket inside : containerSockets) {
        boolean behind =
            String.valueOf(inside.port()).equals(port)
                && inside.isTcp()
                && containerAddress.apply(inside.netns()).map(ip::equals).orElse(false);
        if (behind) {
          for (Rule rule : rules) {
            Optional<SocketProbe> probe = rule.probe(inside, reach);
            if (probe.isPresent()) {
              SocketProbe p = probe.get();
              return Optional.of(
                  new SocketProbe(
                      p.service() + " (published)",
                      p.reach(),
                      p.path(),
                      p.request(),
                      p.ownCredentials(),
                      p.ownControl(),
                      p.connectOnly()));
            }
          }
        }
      }
      return Optional.empty();
    };
  }

  /** A flag's value in a command line ({@code --name=value} or {@code -name value}), or "". */
  static String flag(String commandLine, String name) {
    Matcher m =
        Pattern.compile("(?:^| )--?" + Pattern.quote(name) + "[= ](\\S+)").matcher(commandLine);
    return m.find() ? m.group(1) : "";
  }

  private static boolean portIn(String urls, int port) {
    List<String> ports = new ArrayList<>();
    for (String url : urls.split(",")) {
      ports.add(url.replaceAll(".*:", ""));
    }
    return !urls.isEmpty() && ports.contains(Integer.toString(port));
  }

  private static String scheme(String urls) {
    return urls.startsWith("http://") ? "http" : "https";
  }
}
