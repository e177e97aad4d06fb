package io.github.kubeharness.internal.controlplane;

import io.github.kubeharness.KubeHarnessException;
import io.github.kubeharness.internal.process.FreePorts;
import io.github.kubeharness.internal.process.ManagedProcess;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyStore;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * kube-apiserver for one control plane: serves TLS on 127.0.0.1 only, authenticates client
 * certificates signed by the run's {@link TinyCa}, authorizes with RBAC, and signs service-account
 * tokens so the TokenRequest API works. Ready means {@code /readyz} answers {@code ok}.
 */
public final class ApiServer {

  /** Service network; only its first address is used (the {@code kubernetes} Service). */
  static final String SERVICE_CIDR = "10.0.0.0/24";

  private final Path binary;
  private final Path runDirectory;
  private final TinyCa ca;
  private final String etcdUrl;
  private final boolean auditLog;
  private final List<String> extraFlags;
  private int port;
  private ManagedProcess process;

  public ApiServer(
      Path binary,
      Path runDirectory,
      TinyCa ca,
      String etcdUrl,
      boolean auditLog,
      List<String> extraFlags) {
    this.binary = binary;
    this.runDirectory = runDirectory;
    this.ca = ca;
    this.etcdUrl = etcdUrl;
    this.auditLog = auditLog;
    this.extraFlags = extraFlags;
  }

  public void start(Duration timeout) {
    port = FreePorts.next();
    Path pki = runDirectory.resolve("pki");
    try {
      Files.createDirectories(pki);
      TinyCa.Issued serving =
          ca.issueServing(
              "kube-apiserver",
              List.of("127.0.0.1", "10.0.0.1"),
              List.of(
                  "localhost",
                  "kubernetes",
                  "kubernetes.default",
                  "kubernetes.default.svc",
                  "kubernetes.default.svc.cluster.local"));
      Files.writeString(pki.resolve("ca.crt"), ca.certificatePem());
      Files.writeString(pki.resolve("apiserver.crt"), serving.certificatePem());
      Files.writeString(pki.resolve("apiserver.key"), serving.privateKeyPem());
      KeyPair serviceAccountKeys = TinyCa.newKeyPair();
      Files.writeString(pki.resolve("sa.key"), TinyCa.privateKeyPem(serviceAccountKeys));
      Files.writeString(pki.resolve("sa.pub"), TinyCa.pem(serviceAccountKeys.getPublic()));
      if (auditLog) {
        Files.writeString(pki.resolve("audit-policy.yaml"), AUDIT_POLICY);
      }
    } catch (IOException e) {
      throw new KubeHarnessException("Cannot write certificates into " + pki + ": " + e, e);
    }

    process =
        new ManagedProcess(
            "kube-apiserver", command(pki), runDirectory.resolve("kube-apiserver.log"), Map.of());
    HttpClient http = trustingClient();
    URI readyz = URI.create(url() + "/readyz");
    process.start(
        () -> {
          HttpResponse<String> response =
              http.send(
                  HttpRequest.newBuilder(readyz).timeout(Duration.ofSeconds(2)).build(),
                  HttpResponse.BodyHandlers.ofString());
          return response.statusCode() == 200;
        },
        timeout);
  }

  private List<String> command(Path pki) {
    Map<String, String> flags = new LinkedHashMap<>();
    flags.put("--etcd-servers", etcdUrl);
    flags.put("--bind-address", "127.0.0.1");
    flags.put("--advertise-address", "127.0.0.1");
    // The endpoint reconciler refuses a loopback advertise address; nothing here routes to the
    // `kubernetes` Service's endpoints anyway (there is no kubelet or kube-proxy).
    flags.put("--endpoint-reconciler-type", "none");
    flags.put("--secure-port", Integer.toString(port));
    flags.put("--cert-dir", pki.toString());
    flags.put("--tls-cert-file", pki.resolve("apiserver.crt").toString());
    flags.put("--tls-private-key-file", pki.resolve("apiserver.key").toString());
    flags.put("--client-ca-file", pki.resolve("ca.crt").toString());
    flags.put("--service-cluster-ip-range", SERVICE_CIDR);
    flags.put("--service-account-issuer", "https://kubernetes.default.svc.cluster.local");
    flags.put("--service-account-key-file", pki.resolve("sa.pub").toString());
    flags.put("--service-account-signing-key-file", pki.resolve("sa.key").toString());
    flags.put("--authorization-mode", "RBAC");
    flags.put("--allow-privileged", "true");
    flags.put("--profiling", "false");
    if (auditLog) {
      flags.put("--audit-policy-file", pki.resolve("audit-policy.yaml").toString());
      flags.put("--audit-log-path", auditLogFile().toString());
      flags.put("--audit-log-format", "json");
      // Batch mode would delay lines; blocking writes them before the response returns.
      flags.put("--audit-log-mode", "blocking");
    }
    for (String extra : extraFlags) {
      String[] parts = extra.split("=", 2);
      flags.put(parts[0], parts.length > 1 ? parts[1] : "true");
    }
    List<String> command = new ArrayList<>();
    command.add(binary.toString());
    flags.forEach((flag, value) -> command.add(flag + "=" + value));
    return command;
  }

  private HttpClient trustingClient() {
    try {
      KeyStore trust = KeyStore.getInstance(KeyStore.getDefaultType());
      trust.load(null, null);
      trust.setCertificateEntry("kube-harness-ca", ca.certificate());
      TrustManagerFactory factory =
          TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
      factory.init(trust);
      SSLContext context = SSLContext.getInstance("TLS");
      context.init(null, factory.getTrustManagers(), null);
      return HttpClient.newBuilder()
          .version(HttpClient.Version.HTTP_1_1)
          .sslContext(context)
          .connectTimeout(Duration.ofSeconds(1))
          .build();
    } catch (IOException | GeneralSecurityException e) {
      throw new KubeHarnessException("Cannot build a TLS client trusting the run's CA: " + e, e);
    }
  }

  public String url() {
    return "https://127.0.0.1:" + port;
  }

  public Path auditLogFile() {
    return runDirectory.resolve("audit.log");
  }

  public ManagedProcess process() {
    return process;
  }

  public void stop() {
    if (process != null) {
      process.stop();
    }
  }

  // Metadata of every write and read, without request bodies: enough to list what a test and its
  // controller did in a namespace, cheap enough to leave on.
  private static final String AUDIT_POLICY =
      String.join(
          "\n",
          "apiVersion: audit.k8s.io/v1",
          "kind: Policy",
          "omitStages: [RequestReceived]",
          "rules:",
          "- level: None",
          "  nonResourceURLs: ['/readyz*', '/healthz*', '/livez*', '/version', '/openapi*']",
          "- level: Metadata",
          "");
}
