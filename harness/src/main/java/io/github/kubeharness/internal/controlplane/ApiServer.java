package io.github.kubeharness.internal.controlplane;

import io.github.kubeharness.Profile;
import io.github.kubeharness.internal.process.FreePorts;
import io.github.kubeharness.internal.process.ManagedProcess;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * kube-apiserver as a local process: serves TLS on 127.0.0.1 only, with the flags of {@link
 * ApiServerFlags}. Ready means {@code /readyz} answers {@code ok}.
 */
public final class ApiServer extends LocalComponent {

  // Start-up allocates heavily (API groups, OpenAPI) and the default GOGC=100 collects all along;
  // on 2 cores fewer collections start it ~0.2 s sooner (`make bench`). GOMEMLIMIT bounds the
  // heap that the higher GOGC would otherwise let grow under a heavy test.
  private static final Map<String, String> GO_RUNTIME = Map.of("GOGC", "400", "GOMEMLIMIT", "1GiB");

  private final Pki pki;
  private final String etcdUrl;
  private final boolean auditLog;
  private final Profile profile;
  private final List<String> extraFlags;
  private int port;

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
        ApiServerFlags.of(
            pkiDirectory.toString(),
            etcdUrl,
            "127.0.0.1",
            port,
            auditLog ? auditLogFile().toString() : null,
            profile,
            extraFlags));
    process =
        new ManagedProcess(
            "kube-apiserver", command, runDirectory.resolve("kube-apiserver.log"), GO_RUNTIME);
    process.launch();
  }

  /**
   * Waits for {@code /readyz}. On a seeded etcd the hooks that would only write what the seed holds
   * are not waited for ({@link ReadinessProbes#SEEDED_HOOKS}).
   */
  public void awaitReady(Duration timeout, boolean etcdSeeded) {
    process.awaitReady(
        ReadinessProbes.apiServer(
            url(), pki.ca(), etcdSeeded ? ReadinessProbes.SEEDED_HOOKS : List.of()),
        timeout);
  }

  public String url() {
    return "https://127.0.0.1:" + port;
  }

  public Path auditLogFile() {
    return runDirectory.resolve("audit.log");
  }
}
