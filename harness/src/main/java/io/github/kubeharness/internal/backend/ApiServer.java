package io.github.kubeharness.internal.backend;

import io.github.kubeharness.Profile;
import io.github.kubeharness.internal.controlplane.EtcdTls;
import io.github.kubeharness.internal.controlplane.Pki;
import io.github.kubeharness.internal.controlplane.ReadinessProbes;
import io.github.kubeharness.internal.controlplane.WebhookClient;
import io.github.kubeharness.internal.process.FreePorts;
import io.github.kubeharness.internal.process.Waits;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * kube-apiserver as a local process: serves TLS on 127.0.0.1 only, with the flags of {@link
 * #flags}. Ready means {@code /readyz} answers {@code ok}.
 */
final class ApiServer extends LocalComponent {

  /** Service network; only its first address is used (the {@code kubernetes} Service). */
  static final String SERVICE_CIDR = "10.0.0.0/24";

  // Go's garbage collector, per profile. Start-up allocates heavily (API groups, OpenAPI); a high
  // GOGC collects less often while it does and starts the minimal profile ~0.1 s sooner, but then
  // lets the heap sit at up to five times what is live. The profiles that stand for a real cluster
  // keep memory near a real one's instead: GOGC=75 holds the standard profile (etcd, apiserver,
  // controller manager, 100 custom resources) at ~385 MB where 400 gave ~510, for ~40 ms of start.
  // GOMEMLIMIT is a ceiling only: set low it makes a busy apiserver collect without pause (150
  // CRDs and 2000 objects took 3x as long under 150MiB). Measured: README "Performance".
  private static final Map<String, String> SPEED_FIRST =
      Map.of("GOGC", "400", "GOMEMLIMIT", "1GiB");
  private static final Map<String, String> MEMORY_FIRST =
      Map.of("GOGC", "75", "GOMEMLIMIT", "1GiB");

  private final Pki pki;
  private final String etcdUrl;
  private final boolean auditLog;
  private final Profile profile;
  private final List<String> extraFlags;
  private int port;
  private ReadinessProbes.ApiServerProbes probes;

  public ApiServer(
      Path binary,
      Path runDirectory,
      Pki pki,
      String etcdUrl,
      boolean auditLog,
      Profile profile,
      List<String> extraFlags) {
    super(binary, runDirectory);
    this.pki = pki;
    this.etcdUrl = etcdUrl;
    this.auditLog = auditLog;
    this.profile = profile;
    this.extraFlags = extraFlags;
  }

  /** Starts kube-apiserver without waiting; {@link #url()} is known from here on. */
  public void launch() {
    port = FreePorts.next();
    Path pkiDirectory = runDirectory.resolve("pki");
    pki.writeTo(pkiDirectory);
    List<String> command = new ArrayList<>();
    command.add(binary.toString());
    command.addAll(
        flags(
            pkiDirectory.toString(),
            etcdUrl,
            "127.0.0.1",
            port,
            auditLog ? auditLogFile().toString() : null,
            profile,
            extraFlags));
    process =
        newProcess(
            "kube-apiserver",
            command,
            runDirectory.resolve("kube-apiserver.log"),
            goRuntime(profile));
    process.launch();
    // After the launch: its client certificate is made while the apiserver boots.
    probes = ReadinessProbes.apiServer(url(), pki.ca());
  }

  /**
   * Waits for {@code /readyz}. On a seeded etcd the hooks that would only write what the seed holds
   * are not waited for ({@link ReadinessProbes#SEEDED_HOOKS}).
   */
  public void awaitReady(Duration timeout, boolean etcdSeeded) {
    process.awaitReady(
        probes.readyz(etcdSeeded ? ReadinessProbes.SEEDED_HOOKS : List.of()), timeout);
  }

  /**
   * Waits for {@code /healthz}: all post-start hooks done. kube-controller-manager launched before
   * that finds the apiserver unhealthy and waits a full second before it asks again.
   */
  public void awaitHealthy(Duration timeout) {
    process.awaitReady(probes.healthz(), timeout);
  }

  /** The probes of this apiserver, on its one client (known from {@link #launch()} on). */
  public ReadinessProbes.ApiServerProbes probes() {
    return probes;
  }

  public String url() {
    return "https://127.0.0.1:" + port;
  }

  public int port() {
    return port;
  }

  public Pki pki() {
    return pki;
  }

  /**
   * Stops kube-apiserver (SIGTERM, as a node stops it), keeps it down for {@code downtime}, then
   * starts it again with the same flags on the same port, on etcd's data as it is, and waits until
   * it is ready.
   */
  public void restart(Duration downtime, Duration timeout) {
    process.stop();
    Waits.sleep(downtime.toMillis());
    process.launch();
    // Every object the bootstrap hooks would create exists by now, as on a seeded start.
    awaitReady(timeout, true);
  }

  public Path auditLogFile() {
    return runDirectory.resolve("audit.log");
  }

  /** The Go runtime settings kube-apiserver runs with for {@code profile}. */
  private static Map<String, String> goRuntime(Profile profile) {
    return profile == Profile.MINIMAL ? SPEED_FIRST : MEMORY_FIRST;
  }

  /**
   * kube-apiserver's flags, shared with the container backend: TLS with the run's {@link Pki},
   * client-certificate authentication (no anonymous requests), RBAC, TLS to etcd with its client
   * certificate, service-account token signing; {@code --name=value} each, {@code extra} flags last
   * (they win).
   *
   * @param pkiDirectory where the {@link Pki} files are, as the apiserver sees it
   * @param auditLogPath where to write the audit log, or null for none
   */
  public static List<String> flags(
      String pkiDirectory,
      String etcdUrl,
      String bindAddress,
      int port,
      String auditLogPath,
      Profile profile,
      List<String> extra) {
    String pki = pkiDirectory.endsWith("/") ? pkiDirectory : pkiDirectory + "/";
    Map<String, String> flags = new LinkedHashMap<>();
    flags.put("--etcd-servers", etcdUrl);
    if (etcdUrl.startsWith("https:")) {
      // etcd on a port asks for the run's etcd certificate; on a Unix socket the run
      // directory's permissions keep everyone else out.
      flags.put("--etcd-cafile", pki + EtcdTls.CA);
      flags.put("--etcd-certfile", pki + EtcdTls.CLIENT_CERT);
      flags.put("--etcd-keyfile", pki + EtcdTls.CLIENT_KEY);
    }
    flags.put("--bind-address", bindAddress);
    flags.put("--advertise-address", "127.0.0.1");
    // The endpoint reconciler refuses a loopback advertise address; nothing here routes to the
    // `kubernetes` Service's endpoints anyway (there is no kubelet or kube-proxy).
    flags.put("--endpoint-reconciler-type", "none");
    flags.put("--secure-port", Integer.toString(port));
    flags.put("--cert-dir", pki);
    flags.put("--tls-cert-file", pki + Pki.SERVING_CERT);
    flags.put("--tls-private-key-file", pki + Pki.SERVING_KEY);
    flags.put("--client-ca-file", pki + Pki.CA);
    flags.put("--requestheader-client-ca-file", pki + Pki.FRONT_PROXY_CA);
    flags.put("--requestheader-allowed-names", Pki.FRONT_PROXY_USER);
    flags.put("--requestheader-username-headers", "X-Remote-User");
    flags.put("--requestheader-group-headers", "X-Remote-Group");
    flags.put("--requestheader-extra-headers-prefix", "X-Remote-Extra-");
    flags.put("--service-cluster-ip-range", SERVICE_CIDR);
    flags.put("--service-account-issuer", "https://kubernetes.default.svc.cluster.local");
    flags.put("--service-account-key-file", pki + Pki.SA_PUB);
    flags.put("--service-account-signing-key-file", pki + Pki.SA_KEY);
    // Every request names who sends it: the probes, components and users all hold certificates,
    // so nothing needs the anonymous user, and a stranger gets 401 rather than whatever RBAC
    // grants system:anonymous (discovery, /version, health).
    flags.put("--anonymous-auth", "false");
    flags.put("--authorization-mode", "RBAC");
    flags.put("--allow-privileged", "true");
    // Logs, exec and port-forward go to a node's kubelet; by its InternalIP, which for the
    // simulated profile's nodes is 127.0.0.1. The default tries the Hostname first: a DNS lookup
    // of a made-up node name on the machine's resolver.
    flags.put("--kubelet-preferred-address-types", "InternalIP");
    flags.put("--profiling", "false");
    if (auditLogPath != null) {
      flags.put("--audit-policy-file", pki + Pki.AUDIT_POLICY);
      flags.put("--audit-log-path", auditLogPath);
      flags.put("--audit-log-format", "json");
      // Batch mode would delay lines; blocking writes them before the response returns.
      flags.put("--audit-log-mode", "blocking");
    }
    // The client certificate kube-apiserver presents to admission webhooks: the webhook server in
    // the test JVM refuses every caller without it (WebhookClient).
    flags.put("--admission-control-config-file", pki + WebhookClient.ADMISSION_CONFIG);
    if (profile == Profile.MINIMAL) {
      // As envtest does: without kube-controller-manager no `default` ServiceAccount is ever
      // created, and the admission plugin would reject every pod that relies on it.
      flags.put("--disable-admission-plugins", "ServiceAccount");
    }
    for (String flag : extra) {
      String[] parts = flag.split("=", 2);
      flags.put(parts[0], parts.length > 1 ? parts[1] : "true");
    }
    List<String> args = new ArrayList<>();
    flags.forEach((flag, value) -> args.add(flag + "=" + value));
    return args;
  }
}
