package io.github.kubeharness.internal.controlplane;

import io.github.kubeharness.KubeHarnessException;
import io.github.kubeharness.internal.process.FreePorts;
import io.github.kubeharness.internal.process.ManagedProcess;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509TrustManager;

/**
 * kube-controller-manager of the {@code standard} profile, running only the controllers that make a
 * pod-less cluster behave: namespace deletion, garbage collection of owned objects, service
 * accounts and their tokens, the {@code kube-root-ca.crt} ConfigMap and aggregated ClusterRoles.
 * Workload controllers stay off: without a kubelet their pods would never run anyway.
 */
public final class ControllerManager {

  static final String CONTROLLERS =
      "namespace-controller,garbage-collector-controller,serviceaccount-controller,"
          + "serviceaccount-token-controller,clusterrole-aggregation-controller,"
          + "root-ca-certificate-publisher-controller";

  private final Path binary;
  private final Path runDirectory;
  private final String kubeconfig;
  private int port;
  private ManagedProcess process;

  public ControllerManager(Path binary, Path runDirectory, String kubeconfig) {
    this.binary = binary;
    this.runDirectory = runDirectory;
    this.kubeconfig = kubeconfig;
  }

  public void start(Duration timeout) {
    port = FreePorts.next();
    Path kubeconfigFile = runDirectory.resolve("kube-controller-manager.kubeconfig");
    Path pki = runDirectory.resolve("pki");
    try {
      Files.writeString(kubeconfigFile, kubeconfig);
    } catch (java.io.IOException e) {
      throw new KubeHarnessException("Cannot write " + kubeconfigFile + ": " + e, e);
    }
    process =
        new ManagedProcess(
            "kube-controller-manager",
            command(kubeconfigFile, pki),
            runDirectory.resolve("kube-controller-manager.log"),
            Map.of());
    HttpClient http = insecureLocalClient();
    URI healthz = URI.create("https://127.0.0.1:" + port + "/healthz");
    process.start(
        () ->
            http.send(
                        HttpRequest.newBuilder(healthz).timeout(Duration.ofSeconds(2)).build(),
                        HttpResponse.BodyHandlers.ofString())
                    .statusCode()
                == 200,
        timeout);
  }

  private List<String> command(Path kubeconfigFile, Path pki) {
    List<String> command = new java.util.ArrayList<>();
    command.add(binary.toString());
    command.addAll(
        flags(
            kubeconfigFile.toString(),
            pki.toString(),
            "127.0.0.1",
            port,
            runDirectory.resolve("kcm-certs").toString()));
    return command;
  }

  /**
   * The kube-controller-manager flags, shared with the container backend.
   *
   * @param pkiDirectory where the {@link Pki} files are, as the controller manager sees it
   */
  public static List<String> flags(
      String kubeconfig, String pkiDirectory, String bindAddress, int port, String certDirectory) {
    String pki = pkiDirectory.endsWith("/") ? pkiDirectory : pkiDirectory + "/";
    return List.of(
        "--kubeconfig=" + kubeconfig,
        "--controllers=" + CONTROLLERS,
        "--service-account-private-key-file=" + pki + Pki.SA_KEY,
        "--root-ca-file=" + pki + Pki.CA,
        "--leader-elect=false",
        "--bind-address=" + bindAddress,
        "--secure-port=" + port,
        "--cert-dir=" + certDirectory,
        "--concurrent-namespace-syncs=5",
        "--profiling=false");
  }

  // The controller manager serves /healthz with a certificate it generates itself at start, so
  // there is nothing to pin; the probe only ever goes to 127.0.0.1 on a port we chose.
  private static HttpClient insecureLocalClient() {
    TrustManager trustAll =
        new X509TrustManager() {
          @Override
          public void checkClientTrusted(X509Certificate[] chain, String authType) {}

          @Override
          public void checkServerTrusted(X509Certificate[] chain, String authType) {}

          @Override
          public X509Certificate[] getAcceptedIssuers() {
            return new X509Certificate[0];
          }
        };
    try {
      SSLContext context = SSLContext.getInstance("TLS");
      context.init(null, new TrustManager[] {trustAll}, null);
      return HttpClient.newBuilder()
          .version(HttpClient.Version.HTTP_1_1)
          .sslContext(context)
          .connectTimeout(Duration.ofSeconds(1))
          .build();
    } catch (GeneralSecurityException e) {
      throw new KubeHarnessException("Cannot build a TLS client: " + e, e);
    }
  }

  public ManagedProcess process() {
    return process;
  }

  public void stop() {
    if (process != null) {
      process.stop();
    }
  }
}
