package io.github.kubeharness;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.client.Config;
import io.github.kubeharness.internal.controlplane.PemKeys;
import io.github.kubeharness.internal.controlplane.TlsStores;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import javax.net.ssl.KeyManager;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManager;

/**
 * The lockdown checks every backend's test shares, made from the outside: which addresses the
 * processes listen on ({@code /proc/net}) and Docker publishes ({@code docker inspect}), what etcd
 * and the API server answer to a caller without the run's credentials, and what the second local
 * user ({@link Stranger}) gets.
 */
public final class Lockdown {

  /** etcd's range request for every key under /registry, as an intruder would send it. */
  private static final String ETCD_RANGE_ALL =
      "{\"key\":\"L3JlZ2lzdHJ5\",\"range_end\":\"L3JlZ2lzdHJ6\"}";

  private Lockdown() {}

  // ---- sockets and published ports -------------------------------------------------------

  /** Every address:port the process listens on (hex address as /proc/net writes it). */
  public static List<String> listeningAddresses(long pid) throws IOException {
    Map<Long, String> listening = listeningSockets();
    List<String> addresses = new ArrayList<>();
    try (Stream<Path> fds = Files.list(Path.of("/proc", Long.toString(pid), "fd"))) {
      for (Path fd : (Iterable<Path>) fds::iterator) {
        Optional<String> target = readLink(fd);
        if (target.isPresent() && target.get().startsWith("socket:[")) {
          long inode = Long.parseLong(target.get().replaceAll("\\D", ""));
          if (listening.containsKey(inode)) {
            addresses.add(listening.get(inode));
          }
        }
      }
    }
    return addresses;
  }

  /** The ports of {@link #listeningAddresses}. */
  public static List<Integer> listeningPorts(long pid) throws IOException {
    return listeningAddresses(pid).stream()
        .map(a -> Integer.parseInt(a.substring(a.indexOf(':') + 1)))
        .distinct()
        .toList();
  }

  /** The process listens, and on loopback only. */
  public static void assertListensOnLoopbackOnly(String name, long pid) throws IOException {
    List<String> addresses = listeningAddresses(pid);
    assertThat(addresses).as(name + " listens").isNotEmpty();
    assertThat(addresses).as(name + " listens on loopback only").allMatch(Lockdown::isLoopback);
  }

  /** The addresses that listen on {@code port} in this network namespace, whatever the process. */
  public static List<String> listenersOnPort(int port) throws IOException {
    return listeningSockets().values().stream().filter(a -> a.endsWith(":" + port)).toList();
  }

  /** Socket inode to "address:port" of every listening TCP socket of this network namespace. */
  private static Map<Long, String> listeningSockets() throws IOException {
    Map<Long, String> sockets = new HashMap<>();
    for (String table : List.of("/proc/net/tcp", "/proc/net/tcp6")) {
      List<String> lines = Files.readAllLines(Path.of(table));
      for (String line : lines.subList(1, lines.size())) {
        String[] fields = line.trim().split("\\s+");
        if (fields[3].equals("0A")) { // LISTEN
          String[] local = fields[1].split(":");
          sockets.put(Long.parseLong(fields[9]), local[0] + ":" + Integer.parseInt(local[1], 16));
        }
      }
    }
    return sockets;
  }

  private static Optional<String> readLink(Path fd) {
    try {
      return Optional.of(Files.readSymbolicLink(fd).toString());
    } catch (IOException e) {
      return Optional.empty(); // closed meanwhile
    }
  }

  // /proc/net/tcp writes 127.0.0.1 as 0100007F; tcp6 writes ::1 and ::ffff:127.0.0.1 in 32 hex.
  public static boolean isLoopback(String address) {
    String host = address.substring(0, address.indexOf(':'));
    return host.equals("0100007F")
        || host.equals("00000000000000000000000001000000")
        || host.equals("0000000000000000FFFF00000100007F");
  }

  /**
   * Every port Docker publishes for the container, as "containerPort/tcp -> hostIp:hostPort", read
   * with {@code docker inspect}.
   */
  public static List<String> publishedPorts(String containerId) {
    String json =
        docker(
            "inspect",
            "--format",
            "{{range $p, $b := .NetworkSettings.Ports}}{{range $b}}{{$p}} -> {{.HostIp}}:{{.HostPort}}\n{{end}}{{end}}",
            containerId);
    return json.lines().filter(l -> !l.isBlank()).toList();
  }

  /** The container's state pid on the host (its first process). */
  public static long containerPid(String containerId) {
    return Long.parseLong(docker("inspect", "--format", "{{.State.Pid}}", containerId).trim());
  }

  public static String containerImage(String containerId) {
    return docker("inspect", "--format", "{{.Config.Image}}", containerId).trim();
  }

  public static String containerNetworkMode(String containerId) {
    return docker("inspect", "--format", "{{.HostConfig.NetworkMode}}", containerId).trim();
  }

  private static String docker(String... args) {
    List<String> command = new ArrayList<>(List.of("docker"));
    command.addAll(List.of(args));
    try {
      Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
      String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      assertThat(process.waitFor()).as(String.join(" ", command) + ": " + out).isZero();
      return out;
    } catch (IOException e) {
      throw new IllegalStateException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  // ---- etcd ---------------------------------------------------------------------------

  /**
   * etcd at 127.0.0.1:{@code port} gives nothing to a client without the run's etcd certificate:
   * not over plain HTTP, not over TLS without a certificate, not with {@code otherIdentity} (a
   * certificate of the run's main CA, which signs the users a test adds), and not to the second
   * local user. The etcd process is the one that listens on {@code port} itself (a local etcd, a
   * container's on the host's network); see {@link #assertEtcdRefusesStrangers(EtcdAccess, int,
   * String)}.
   */
  public static void assertEtcdRefusesStrangers(int port, String otherIdentityKubeconfig) {
    assertEtcdRefusesStrangers(EtcdAccess.listeningOn(port), port, otherIdentityKubeconfig);
  }

  /**
   * The same, for the etcd whose credentials {@code runs} holds, on {@code port} (its own, or one
   * Docker publishes for it). Each refusal is the one that proves it (TLS alerts for a missing or
   * foreign certificate, Go's answer to plain HTTP on a TLS port), and each probe is first sent
   * with the run's etcd certificate, which etcd must accept: a probe that fails for another reason
   * (a port that does not answer at all) fails the check.
   */
  public static void assertEtcdRefusesStrangers(
      EtcdAccess runs, int port, String otherIdentityKubeconfig) {
    String https = "https://127.0.0.1:" + port + "/v3/kv/range";
    int accepted = assertTheRunsCertificateIsAnswered(runs, port);
    HttpRequest range =
        HttpRequest.newBuilder(URI.create(https))
            .timeout(Duration.ofSeconds(5))
            .POST(HttpRequest.BodyPublishers.ofString(ETCD_RANGE_ALL))
            .build();
    assertThatThrownBy(
            () -> AnonymousHttp.client().send(range, HttpResponse.BodyHandlers.ofString()))
        .as("etcd over TLS without a client certificate")
        .satisfies(
            // TLS 1.3: the client may finish its handshake and send the request before the
            // server's certificate_required alert arrives; it is then lost in the close. Either
            // way no answer, where the same request with the run's certificate had one (curl,
            // below, sees the alert itself).
            refused ->
                assertThat(
                        EtcdAccess.tlsAlert(refused).orElse(String.valueOf(refused.getMessage())))
                    .as("the TLS alert, or the close (%s)", refused)
                    .matches(
                        "certificate_required|bad_certificate|.*header parser received no bytes"));
    HttpClient withOtherIdentity = presenting(otherIdentityKubeconfig);
    // A foreign certificate: TLS 1.3 ends the handshake before the server has checked it, so the
    // server's alert may come after the request went out and be lost in the close; either way the
    // connection ends with no answer, where the same request with the run's certificate had one.
    assertThatThrownBy(() -> withOtherIdentity.send(range, HttpResponse.BodyHandlers.ofString()))
        .as("etcd with a client certificate of the API server's CA")
        .satisfies(
            refused ->
                assertThat(
                        EtcdAccess.tlsAlert(refused).orElse(String.valueOf(refused.getMessage())))
                    .as("the TLS alert, or the close (%s)", refused)
                    .matches("unknown_ca|bad_certificate|.*header parser received no bytes"));
    assertPlainHttpIsTurnedAway(port);

    // HTTP/1.1 as the Java probes: over h2 etcd's peer port gives an empty reply.
    Stranger.Result owners = runs.curl(https, "--http1.1", "-d", ETCD_RANGE_ALL);
    assertThat(owners.output()).as("the run's certificate, curl").endsWith("\n" + accepted);
    Stranger.Result tls = Stranger.curl(https, "--http1.1", "-d", ETCD_RANGE_ALL);
    assertThat(tls.output())
        .as("second user, etcd over TLS")
        .doesNotContain("\"kvs\"")
        .containsPattern("alert (certificate required|bad certificate)");
    assertThat(tls.failed()).as("second user, etcd over TLS: %s", tls.output()).isTrue();
    Stranger.Result plain =
        Stranger.curl("http://127.0.0.1:" + port + "/v3/kv/range", "-d", ETCD_RANGE_ALL);
    assertThat(plain.output())
        .as("second user, etcd over plain HTTP")
        .doesNotContain("\"kvs\"")
        .containsPattern(PLAIN_HTTP_ON_TLS + "(?s).*\n400$|Empty reply from server(?s).*\n000$");
  }

  /**
   * The control: the range request with the run's etcd certificate is let in and answered, with the
   * keys on a client port (200) or with 404 on the peer port (no client API there). Returns the
   * status.
   */
  private static int assertTheRunsCertificateIsAnswered(EtcdAccess runs, int port) {
    try {
      HttpResponse<String> answer = runs.post(port, "/v3/kv/range", ETCD_RANGE_ALL);
      assertThat(answer.statusCode())
          .as("etcd on port %d with the run's certificate: %s", port, answer.body())
          .isIn(200, 404);
      if (answer.statusCode() == 200) {
        assertThat(answer.body()).as("the run's certificate reads keys").contains("\"kvs\"");
      }
      return answer.statusCode();
    } catch (Exception e) {
      throw new AssertionError(
          "etcd on port " + port + " refused the run's own certificate (the control): " + e, e);
    }
  }

  /**
   * etcd's clients' Unix socket answers its owner (this JVM's user: the range request reads keys,
   * which shows the socket is etcd's real endpoint) and not the second local user, whom the run
   * directory's mode keeps out: the connect itself is denied.
   */
  public static void assertEtcdSocketClosedToStrangers(Path socket) throws Exception {
    assertThat(socket).as("etcd's clients' socket").exists();
    String[] probe = {"-v", "--unix-socket", socket.toString(), "-d", ETCD_RANGE_ALL};
    Stranger.Result owners = EtcdAccess.ownerCurl("http://etcd/v3/kv/range", probe);
    assertThat(owners.output())
        .as("etcd answers its owner on " + socket)
        .contains("\"kvs\"")
        .endsWith("\n200");
    Stranger.Result range = Stranger.curl("http://etcd/v3/kv/range", probe);
    assertThat(range.output())
        .as("second user, etcd's socket")
        .doesNotContain("\"kvs\"")
        // curl shortens the path it names; the errno is the point.
        .containsPattern("Immediate connect fail for [^\\n]*: Permission denied");
    assertThat(range.failed()).as("second user, etcd's socket: %s", range.output()).isTrue();
  }

  /** Go's TLS server's answer to a plain HTTP request (with status 400), where it gives one. */
  private static final String PLAIN_HTTP_ON_TLS = "Client sent an HTTP request to an HTTPS server";

  /**
   * A TLS port turns plain HTTP away: with Go's 400 (a net/http server's own TLS) or by closing the
   * connection without a byte (etcd's client listener, TLS underneath its HTTP server). Either is
   * the TLS layer's refusal; a refused connection is not (the control showed the port serves).
   */
  private static void assertPlainHttpIsTurnedAway(int port) {
    HttpRequest plain =
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/v3/kv/range"))
            .timeout(Duration.ofSeconds(5))
            .POST(HttpRequest.BodyPublishers.ofString(ETCD_RANGE_ALL))
            .build();
    try {
      HttpResponse<String> response =
          HttpClient.newHttpClient().send(plain, HttpResponse.BodyHandlers.ofString());
      assertThat(response.statusCode()).as("etcd over plain HTTP").isEqualTo(400);
      assertThat(response.body()).as("etcd over plain HTTP").contains(PLAIN_HTTP_ON_TLS);
    } catch (IOException e) {
      assertThat(String.valueOf(e.getMessage()))
          .as("etcd over plain HTTP: closed without an answer (%s)", e)
          .contains("received no bytes");
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  /**
   * A client presenting the kubeconfig's certificate and trusting any server. It presents it
   * whatever issuers the server asks for: Java's own key manager would send no certificate to a
   * server that names another CA, and the probe would be one without a certificate.
   */
  private static HttpClient presenting(String kubeconfig) {
    Config config = Config.fromKubeconfig(kubeconfig);
    try {
      List<X509Certificate> chain = PemKeys.certificates(decode(config.getClientCertData()));
      PrivateKey key = PemKeys.privateKey(decode(config.getClientKeyData())).orElseThrow();
      SSLContext tls = SSLContext.getInstance("TLS");
      tls.init(
          new KeyManager[] {new AlwaysPresenting(key, chain.toArray(X509Certificate[]::new))},
          new TrustManager[] {TlsStores.anyServer()},
          null);
      return HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).sslContext(tls).build();
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  private static String decode(String data) {
    return new String(Base64.getDecoder().decode(data), StandardCharsets.US_ASCII);
  }

  // ---- the API server and files ------------------------------------------------------

  /** The second local user gets 401 from the API server: no anonymous access. */
  public static void assertApiServerRefusesTheStranger(String apiServerUrl) {
    assertStrangerListsNoSecrets(apiServerUrl, "401");
    Stranger.Result version = Stranger.curl(apiServerUrl + "/version");
    assertThat(version.output()).as("second user, /version").endsWith("\n401");
  }

  /**
   * The second local user reads no object from an API server kube-harness does not configure
   * (kind's: kubeadm keeps anonymous requests for the kubelet's health probes): 401 or 403.
   */
  public static void assertApiServerGivesTheStrangerNoObjects(String apiServerUrl) {
    assertStrangerListsNoSecrets(apiServerUrl, "40[13]");
  }

  /** The second user's list of Secrets holds none, and its status matches {@code status}. */
  private static void assertStrangerListsNoSecrets(String apiServerUrl, String status) {
    Stranger.Result secrets = Stranger.curl(apiServerUrl + "/api/v1/secrets");
    assertThat(secrets.output())
        .as("second user, the API server's secrets")
        .doesNotContain("\"items\"")
        .matches("(?s).*\n" + status);
  }

  /** The second local user can neither list nor read the files under {@code directory}. */
  public static void assertStrangerReadsNothingIn(Path directory) throws IOException {
    List<Path> files;
    try (Stream<Path> paths = Files.walk(directory)) {
      files = paths.filter(Files::isRegularFile).toList();
    }
    assertThat(files).as("files under " + directory).isNotEmpty();
    Stranger.Result list = Stranger.run("ls '" + directory + "'");
    assertThat(list.failed()).as("second user lists %s: %s", directory, list.output()).isTrue();
    StringBuilder cat = new StringBuilder("fails=0; for f in");
    files.forEach(f -> cat.append(" '").append(f).append('\''));
    cat.append("; do cat \"$f\" >/dev/null 2>&1 && echo \"READ $f\"; done; true");
    assertThat(Stranger.run(cat.toString()).output()).as("files the second user read").isBlank();
  }
}
