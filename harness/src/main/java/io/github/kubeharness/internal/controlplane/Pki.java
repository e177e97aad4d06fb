package io.github.kubeharness.internal.controlplane;

import io.github.kubeharness.internal.process.PrivateFiles;
import java.nio.file.Path;
import java.security.KeyPair;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The files kube-apiserver reads at start, made for one run: the CA that signs client certificates,
 * the serving certificate, the service-account signing keys, the audit policy and the front-proxy
 * CA whose certificate may pass on a caller's identity in headers (the fault proxy's), and the
 * client certificate etcd admits ({@link EtcdTls}), and the client certificate kube-apiserver
 * presents to admission webhooks ({@link WebhookClient}). The same set serves the local processes
 * (written to a directory) and the containers (copied in).
 */
public final class Pki {

  /** File names, relative to the pki directory, as the apiserver flags name them. */
  public static final String CA = "ca.crt";

  public static final String SERVING_CERT = "apiserver.crt";
  public static final String SERVING_KEY = "apiserver.key";
  public static final String SA_KEY = "sa.key";
  public static final String SA_PUB = "sa.pub";
  public static final String AUDIT_POLICY = "audit-policy.yaml";
  public static final String FRONT_PROXY_CA = "front-proxy-ca.crt";

  /**
   * The serving certificate of kube-controller-manager and kube-scheduler: given to them so they do
   * not write a self-signed one of their own (world-readable, and a key generation per start).
   */
  public static final String COMPONENTS_CERT = "components.crt";

  public static final String COMPONENTS_KEY = "components.key";

  /** The name the apiserver accepts identity headers from (the fault proxy's certificate). */
  public static final String FRONT_PROXY_USER = "kube-harness-fault-proxy";

  private final TinyCa ca;
  private final TinyCa frontProxyCa;
  private final Map<String, String> files;
  private final EtcdTls etcd;
  private final TinyCa.Issued webhookClient;
  private TinyCa.Issued frontProxyClient;

  private Pki(
      TinyCa ca,
      TinyCa frontProxyCa,
      Map<String, String> files,
      EtcdTls etcd,
      TinyCa.Issued webhookClient) {
    this.ca = ca;
    this.frontProxyCa = frontProxyCa;
    this.files = files;
    this.etcd = etcd;
    this.webhookClient = webhookClient;
  }

  /**
   * A fresh set. The serving certificate covers 127.0.0.1, localhost, the in-cluster names and
   * {@code extraHosts} (IPs or DNS names: the Docker host, for the container backend); the
   * apiserver reaches etcd with {@code etcd}'s client certificate.
   */
  public static Pki create(TinyCa ca, List<String> extraHosts, EtcdTls etcd) {
    List<String> ips = new ArrayList<>(List.of("127.0.0.1", "10.0.0.1"));
    List<String> dns =
        new ArrayList<>(
            List.of(
                "localhost",
                "kubernetes",
                "kubernetes.default",
                "kubernetes.default.svc",
                "kubernetes.default.svc.cluster.local"));
    for (String host : extraHosts) {
      (host.matches("[0-9.]+|.*:.*") ? ips : dns).add(host);
    }
    TinyCa.Issued serving = ca.issueServing("kube-apiserver", ips, dns);
    TinyCa.Issued components =
        ca.issueServing("kube-harness-components", List.of("127.0.0.1"), List.of("localhost"));
    KeyPair serviceAccount = TinyCa.newKeyPair();
    // A CA of its own, as kubeadm's front-proxy CA: a certificate the client CA did not sign can
    // never authenticate as itself, so a request the fault proxy forwards with a bearer token (no
    // identity headers) is authenticated by that token, not as the proxy.
    TinyCa frontProxyCa = TinyCa.create("kube-harness-front-proxy-ca");
    Map<String, String> files = new LinkedHashMap<>();
    files.put(CA, ca.certificatePem());
    files.put(SERVING_CERT, serving.certificatePem());
    files.put(SERVING_KEY, serving.privateKeyPem());
    files.put(COMPONENTS_CERT, components.certificatePem());
    files.put(COMPONENTS_KEY, components.privateKeyPem());
    files.put(SA_KEY, TinyCa.privateKeyPem(serviceAccount));
    files.put(SA_PUB, TinyCa.pem(serviceAccount.getPublic()));
    files.put(AUDIT_POLICY, AUDIT_POLICY_YAML);
    files.put(FRONT_PROXY_CA, frontProxyCa.certificatePem());
    TinyCa.Issued webhookClient = ca.issueClient(WebhookClient.USER, List.of());
    return new Pki(ca, frontProxyCa, files, etcd, webhookClient);
  }

  public TinyCa ca() {
    return ca;
  }

  /**
   * The fault proxy's client certificate, from the front-proxy CA the apiserver trusts. Issued on
   * first use: most runs start no fault proxy, and a start waits for every key made before it.
   */
  public synchronized TinyCa.Issued frontProxyClient() {
    if (frontProxyClient == null) {
      frontProxyClient = frontProxyCa.issueClient(FRONT_PROXY_USER, List.of());
    }
    return frontProxyClient;
  }

  public TinyCa frontProxyCa() {
    return frontProxyCa;
  }

  /** File name to content: what every component reads (no etcd credential). */
  public Map<String, String> files() {
    return files;
  }

  /**
   * {@link #files()}, the etcd client certificate and the webhook client's files: what
   * kube-apiserver reads from {@code pkiDirectory} (as it sees that directory).
   */
  public Map<String, String> apiServerFiles(String pkiDirectory) {
    Map<String, String> all = new LinkedHashMap<>(files);
    all.putAll(etcd.clientFiles());
    all.putAll(WebhookClient.files(webhookClient, pkiDirectory));
    return all;
  }

  /** Writes kube-apiserver's files into {@code directory}, owner-only. */
  public void writeTo(Path directory) {
    PrivateFiles.directory(directory);
    String absolute = directory.toAbsolutePath().toString();
    for (Map.Entry<String, String> file : apiServerFiles(absolute).entrySet()) {
      PrivateFiles.write(directory.resolve(file.getKey()), file.getValue());
    }
  }

  // Metadata of every request, without bodies: enough to list what a test and its controller did
  // in a namespace, cheap enough to leave on.
  private static final String AUDIT_POLICY_YAML =
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
