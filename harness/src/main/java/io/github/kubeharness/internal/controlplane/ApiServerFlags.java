package io.github.kubeharness.internal.controlplane;

import io.github.kubeharness.Profile;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The kube-apiserver command line, shared by the local processes and the containers: TLS with the
 * run's {@link Pki}, client-certificate authentication, RBAC, service-account token signing.
 */
public final class ApiServerFlags {

  /** Service network; only its first address is used (the {@code kubernetes} Service). */
  public static final String SERVICE_CIDR = "10.0.0.0/24";

  private ApiServerFlags() {}

  /**
   * The flags, {@code --name=value} each; {@code extra} flags come last and win.
   *
   * @param pkiDirectory where the {@link Pki} files are, as the apiserver sees it
   * @param auditLogPath where to write the audit log, or null for none
   */
  public static List<String> of(
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
    flags.put("--service-cluster-ip-range", SERVICE_CIDR);
    flags.put("--service-account-issuer", "https://kubernetes.default.svc.cluster.local");
    flags.put("--service-account-key-file", pki + Pki.SA_PUB);
    flags.put("--service-account-signing-key-file", pki + Pki.SA_KEY);
    flags.put("--authorization-mode", "RBAC");
    flags.put("--allow-privileged", "true");
    flags.put("--profiling", "false");
    if (auditLogPath != null) {
      flags.put("--audit-policy-file", pki + Pki.AUDIT_POLICY);
      flags.put("--audit-log-path", auditLogPath);
      flags.put("--audit-log-format", "json");
      // Batch mode would delay lines; blocking writes them before the response returns.
      flags.put("--audit-log-mode", "blocking");
    }
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
