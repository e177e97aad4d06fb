package io.github.kubeharness;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.api.model.ServiceAccountBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.github.kubeharness.internal.report.FailureReport;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a local control plane exposes to the rest of the machine, read from the outside: every
 * socket of every component listens on loopback only ({@code /proc/net}), credentials are
 * owner-only files in owner-only directories, no Secret value or key reaches a file the harness
 * writes, and requests without an identity are refused — by the apiserver and by the fault proxy.
 */
class LockdownIT {

  private static final String SECRET_VALUE = "kube-harness-lockdown-" + System.nanoTime();

  static ControlPlane controlPlane;

  @BeforeAll
  static void start() {
    controlPlane =
        ControlPlane.local(
            ControlPlaneOptions.builder()
                .withProfile(Profile.SIMULATED)
                .withAuditLog(true)
                .build());
    controlPlane.start();
  }

  @AfterAll
  static void stop() {
    controlPlane.stop();
  }

  @Test
  void everySocketOfEveryComponentListensOnLoopbackOnly() throws IOException {
    Map<String, Long> components = ComponentProcesses.of(controlPlane);
    assertThat(components.keySet())
        .contains("etcd", "kube-apiserver", "kube-controller-manager", "kube-scheduler");
    assertThat(components.keySet()).anyMatch(name -> name.startsWith("kwok"));
    Map<Long, String> listening = listeningSockets();

    for (Map.Entry<String, Long> component : components.entrySet()) {
      List<String> addresses = socketsOf(component.getValue(), listening);
      assertThat(addresses).as(component.getKey() + " listens").isNotEmpty();
      assertThat(addresses).as(component.getKey()).allMatch(LockdownIT::isLoopback);
    }
    int proxyPort = URI.create(controlPlane.faults().proxyUrl()).getPort();
    List<String> proxy =
        socketsOf(ProcessHandle.current().pid(), listening).stream()
            .filter(a -> a.endsWith(":" + proxyPort))
            .toList();
    assertThat(proxy).as("the fault proxy listens").isNotEmpty().allMatch(LockdownIT::isLoopback);
  }

  @Test
  void credentialsAreOwnerOnlyFilesInOwnerOnlyDirectories() throws IOException {
    Path run = controlPlane.logDirectory().orElseThrow();
    controlPlane.addUser("lockdown-user", List.of());
    List<String> exposed = new ArrayList<>();
    try (Stream<Path> paths = Files.walk(run)) {
      for (Path path : (Iterable<Path>) paths::iterator) {
        Set<PosixFilePermission> permissions = Files.getPosixFilePermissions(path);
        boolean others =
            permissions.stream()
                .anyMatch(p -> p.name().startsWith("GROUP") || p.name().startsWith("OTHERS"));
        if (others) {
          exposed.add(run.relativize(path) + " " + permissions);
        }
      }
    }
    assertThat(exposed).as("files and directories others can read or enter").isEmpty();
    assertThat(run.resolve("pki/ca.crt")).exists();
    assertThat(run.resolve("users/lockdown-user.kubeconfig")).exists();
  }

  @Test
  void noSecretValueOrKeyReachesAFileTheHarnessWrites(@TempDir Path reports) throws IOException {
    String namespace = "lockdown-" + System.nanoTime();
    try (KubernetesClient admin = controlPlane.newClient()) {
      admin
          .namespaces()
          .resource(
              new NamespaceBuilder().withNewMetadata().withName(namespace).endMetadata().build())
          .create();
      admin
          .secrets()
          .inNamespace(namespace)
          .resource(
              new SecretBuilder()
                  .withNewMetadata()
                  .withName("credentials")
                  .endMetadata()
                  .addToStringData("password", SECRET_VALUE)
                  .build())
          .create();
      String token = serviceAccountToken(admin, namespace);
      FailureReport.write(
          reports, admin, namespace, Instant.EPOCH, controlPlane.auditLogFile(), List.of());

      String adminKey = keyBody(controlPlane.kubeconfig());
      List<String> forbidden =
          List.of(
              SECRET_VALUE,
              Base64.getEncoder().encodeToString(SECRET_VALUE.getBytes(StandardCharsets.UTF_8)),
              token,
              adminKey);
      List<Path> written = new ArrayList<>(files(reports));
      // Every log and record in the run directory; the credential files themselves are the
      // owner-only files checked above.
      files(controlPlane.logDirectory().orElseThrow()).stream()
          .filter(f -> f.toString().endsWith(".log") || f.endsWith("pids"))
          .forEach(written::add);
      assertThat(written).anyMatch(f -> f.endsWith("audit.log"));
      for (Path file : written) {
        String content = Files.readString(file, StandardCharsets.ISO_8859_1);
        for (String value : forbidden) {
          assertThat(content).as(file + " holds a secret").doesNotContain(value);
        }
      }
      assertThat(Files.readString(reports.resolve("objects.yaml"))).contains("credentials");
    }
  }

  @Test
  void requestsWithoutAnIdentityAreRefused() throws Exception {
    HttpClient anonymous = AnonymousHttp.client();
    for (String server : List.of(controlPlane.apiServerUrl(), controlPlane.faults().proxyUrl())) {
      HttpResponse<String> response =
          anonymous.send(
              HttpRequest.newBuilder(URI.create(server + "/api/v1/namespaces/default/secrets"))
                  .build(),
              HttpResponse.BodyHandlers.ofString());
      assertThat(response.statusCode()).as(server).isIn(401, 403);
      assertThat(response.body()).as(server).doesNotContain("\"items\"");
    }
  }

  /** A ServiceAccount token, as an operator's pod would hold, to look for in the files. */
  private static String serviceAccountToken(KubernetesClient admin, String namespace) {
    admin
        .serviceAccounts()
        .inNamespace(namespace)
        .resource(
            new ServiceAccountBuilder()
                .withNewMetadata()
                .withName("lockdown")
                .endMetadata()
                .build())
        .create();
    String kubeconfig = controlPlane.serviceAccountKubeconfig(namespace, "lockdown");
    return Config.fromKubeconfig(kubeconfig).getAutoOAuthToken();
  }

  private static String keyBody(String kubeconfig) {
    String data = Config.fromKubeconfig(kubeconfig).getClientKeyData();
    String pem = new String(Base64.getDecoder().decode(data), StandardCharsets.US_ASCII);
    return pem.lines().filter(l -> !l.startsWith("-----")).findFirst().orElseThrow();
  }

  private static List<Path> files(Path directory) throws IOException {
    try (Stream<Path> paths = Files.walk(directory)) {
      return paths.filter(Files::isRegularFile).toList();
    }
  }

  /** Socket inode to "address:port" of every listening TCP socket of the machine. */
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

  private static List<String> socketsOf(long pid, Map<Long, String> listening) throws IOException {
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

  private static Optional<String> readLink(Path fd) {
    try {
      return Optional.of(Files.readSymbolicLink(fd).toString());
    } catch (IOException e) {
      return Optional.empty(); // closed meanwhile
    }
  }

  // /proc/net/tcp writes 127.0.0.1 as 0100007F; tcp6 writes ::1 and ::ffff:127.0.0.1 in 32 hex.
  private static boolean isLoopback(String address) {
    String host = address.substring(0, address.indexOf(':'));
    return host.equals("0100007F")
        || host.equals("00000000000000000000000001000000")
        || host.equals("0000000000000000FFFF00000100007F");
  }
}
