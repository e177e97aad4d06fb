package io.github.kubeharness;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.api.model.ServiceAccountBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.github.kubeharness.internal.controlplane.PemKeys;
import io.github.kubeharness.internal.controlplane.Pki;
import io.github.kubeharness.internal.report.FailureReport;
import io.github.kubeharness.launch.ControlPlanes;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.security.cert.X509Certificate;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509TrustManager;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a local control plane exposes to the rest of the machine, read from the outside: every
 * socket of every component listens on loopback only ({@code /proc/net}), etcd answers only the
 * run's etcd certificate, credentials are owner-only files in owner-only directories, no Secret
 * value or key reaches a file the harness writes, requests without an identity are refused — by the
 * apiserver and by the fault proxy — and a second local user gets nothing at all.
 */
class LockdownIT {

  private static final String SECRET_VALUE = "kube-harness-lockdown-" + System.nanoTime();

  static ControlPlane controlPlane;

  @BeforeAll
  static void start() {
    controlPlane =
        ControlPlanes.local(
            ControlPlaneOptions.builder()
                .withBackend(Backend.LOCAL)
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
    for (Map.Entry<String, Long> component : components.entrySet()) {
      Lockdown.assertListensOnLoopbackOnly(component.getKey(), component.getValue());
    }
    int proxyPort = URI.create(controlPlane.faults().proxyUrl()).getPort();
    List<String> proxy =
        Lockdown.listeningAddresses(ProcessHandle.current().pid()).stream()
            .filter(a -> a.endsWith(":" + proxyPort))
            .toList();
    assertThat(proxy).as("the fault proxy listens").isNotEmpty().allMatch(Lockdown::isLoopback);
  }

  /**
   * etcd's clients reach it through a Unix socket in the run directory, which only the run's owner
   * can open; its one TCP port, the peer port, admits only the run's etcd certificate.
   */
  @Test
  void etcdIsReachableOnlyByTheRunsOwnerAndTheRunsEtcdCertificate() throws Exception {
    long etcd = ComponentProcesses.of(controlPlane).get("etcd");
    Lockdown.assertEtcdSocketClosedToStrangers(
        controlPlane.logDirectory().orElseThrow().resolve("etcd.sock"));
    List<Integer> ports = Lockdown.listeningPorts(etcd);
    assertThat(ports).as("etcd's TCP ports: the peer port alone").hasSize(1);
    String userOfTheApiServersCa = controlPlane.addUser("etcd-intruder", List.of()).kubeconfig();
    Lockdown.assertEtcdRefusesStrangers(EtcdAccess.of(etcd), ports.get(0), userOfTheApiServersCa);
  }

  /**
   * Where the run directory is too deep for a socket's path (a long java.io.tmpdir), etcd's clients
   * fall back to TLS on a loopback port, with the same certificate rule.
   */
  @Test
  void etcdWithoutRoomForASocketAsksForTheCertificateOnBothPorts(@TempDir Path tmp)
      throws IOException {
    Path deep =
        tmp.resolve("a-directory-deep-enough-that-no-unix-socket-path-fits-below-it-".repeat(2));
    try (TemporaryProperty tmpdir = TemporaryProperty.set("java.io.tmpdir", deep.toString());
        ControlPlane deepRun =
            ControlPlanes.local(
                ControlPlaneOptions.builder().withProfile(Profile.MINIMAL).build())) {
      deepRun.start();
      assertThat(deepRun.logDirectory().orElseThrow()).startsWith(deep);
      assertThat(deepRun.logDirectory().orElseThrow().resolve("etcd.sock")).doesNotExist();
      long etcd = ComponentProcesses.of(deepRun).get("etcd");
      List<Integer> ports = Lockdown.listeningPorts(etcd);
      assertThat(ports).as("etcd's client and peer ports").hasSize(2);
      String intruder = deepRun.addUser("etcd-intruder", List.of()).kubeconfig();
      for (int port : ports) {
        Lockdown.assertEtcdRefusesStrangers(EtcdAccess.of(etcd), port, intruder);
      }
    }
  }

  @Test
  void aSecondLocalUserGetsNothing() throws IOException {
    Lockdown.assertApiServerRefusesTheStranger(controlPlane.apiServerUrl());
    Stranger.Result proxy = Stranger.curl(controlPlane.faults().proxyUrl() + "/api/v1/secrets");
    assertThat(proxy.output()).as("second user, the fault proxy").endsWith("\n401");
    Map<String, Long> components = ComponentProcesses.of(controlPlane);
    for (String component : List.of("kube-controller-manager", "kube-scheduler")) {
      for (int port : Lockdown.listeningPorts(components.get(component))) {
        Stranger.Result metrics = Stranger.curl("https://127.0.0.1:" + port + "/metrics");
        assertThat(metrics.output()).as("second user, " + component).matches("(?s).*\n40[13]");
      }
    }
    Path run = controlPlane.logDirectory().orElseThrow();
    Lockdown.assertStrangerReadsNothingIn(run);
    Path root = run.getParent();
    Stranger.Result disturb =
        Stranger.run(
            "touch '"
                + root
                + "/planted' ; mkdir '"
                + root
                + "/run-1-planted' ; rm -rf '"
                + run
                + "' ; ls '"
                + root
                + "'");
    assertThat(root.resolve("planted")).doesNotExist();
    assertThat(root.resolve("run-1-planted")).doesNotExist();
    assertThat(run.resolve("pki").resolve("ca.crt")).as(disturb.output()).exists();
  }

  /**
   * kube-controller-manager and kube-scheduler serve the run's components certificate (issued by
   * the run's CA), so they make no self-signed key of their own: each of their ports presents
   * exactly that certificate, and neither log says it generated one.
   */
  @Test
  void theControllerManagerAndTheSchedulerServeTheRunsCertificateAndMakeNoKeyOfTheirOwn()
      throws Exception {
    Path run = controlPlane.logDirectory().orElseThrow();
    X509Certificate expected =
        PemKeys.certificates(Files.readString(run.resolve("pki").resolve(Pki.COMPONENTS_CERT)))
            .get(0);
    Map<String, Long> components = ComponentProcesses.of(controlPlane);
    for (String component : List.of("kube-controller-manager", "kube-scheduler")) {
      List<Integer> ports = Lockdown.listeningPorts(components.get(component));
      assertThat(ports).as(component + "'s ports").isNotEmpty();
      for (int port : ports) {
        assertThat(servedCertificate(port))
            .as(component + " on port " + port + " serves the run's components certificate")
            .isEqualTo(expected);
      }
      assertThat(run.resolve(component + ".log"))
          .content()
          .as(component + "'s log")
          .doesNotContain("self-signed");
    }
  }

  /** The leaf certificate a TLS server on a loopback port presents (read, not trusted). */
  private static X509Certificate servedCertificate(int port) throws Exception {
    X509Certificate[] seen = new X509Certificate[1];
    X509TrustManager recording =
        new X509TrustManager() {
          @Override
          public void checkClientTrusted(X509Certificate[] chain, String authType) {}

          @Override
          public void checkServerTrusted(X509Certificate[] chain, String authType) {
            seen[0] = chain[0];
          }

          @Override
          public X509Certificate[] getAcceptedIssuers() {
            return new X509Certificate[0];
          }
        };
    SSLContext tls = SSLContext.getInstance("TLS");
    tls.init(null, new TrustManager[] {recording}, null);
    try (SSLSocket socket = (SSLSocket) tls.getSocketFactory().createSocket("127.0.0.1", port)) {
      socket.startHandshake();
    }
    return seen[0];
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
      assertThat(response.statusCode()).as(server + ": no anonymous access").isEqualTo(401);
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
}
