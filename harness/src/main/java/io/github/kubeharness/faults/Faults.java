package io.github.kubeharness.faults;

import io.fabric8.kubernetes.client.Config;
import java.time.Duration;
import java.util.List;

/**
 * Faults injected into the API traffic of the controllers under test: watches that end, an API
 * server that goes away and comes back, requests answered with 409, 429, 500 or 503, or slowed
 * down. The controllers' client reaches kube-apiserver through a proxy on 127.0.0.1 that injects
 * them; the test's own client does not, so setting up and checking are never disturbed.
 *
 * <pre>{@code
 * faults.respond(FaultRule.requests().verbs("update").resource("guestbooks").times(3).conflict());
 * faults.dropWatches();
 * faults.apiServerDown(Duration.ofSeconds(5));
 * }</pre>
 *
 * <p>Injected into {@code @ControllerTest} fields and parameters, scoped to the test's namespace:
 * its rules match requests in that namespace only (unless a rule names another), it drops the
 * watches of that namespace, and its rules end with the test. {@link
 * io.github.kubeharness.ControlPlane#faults()} gives the unscoped one. Only the {@code local}
 * backend runs the proxy.
 */
public interface Faults {

  /**
   * Ends every open watch now (of this scope's namespace, when scoped), as an API server does when
   * it restarts or a load balancer cuts a connection; the controllers must list and watch again.
   *
   * @return how many watches were ended
   */
  int dropWatches();

  /**
   * Really stops kube-apiserver (SIGTERM), keeps it down for {@code downtime}, then starts it again
   * on the same port with etcd's data intact; returns once it is ready. Meanwhile every client, the
   * test's included, finds the port closed. Affects every test sharing the control plane.
   */
  void apiServerDown(Duration downtime);

  /** {@link #apiServerDown} with no downtime: a restart. */
  default void restartApiServer() {
    apiServerDown(Duration.ZERO);
  }

  /**
   * From now on, answers (or delays) the controllers' requests that {@code rule} matches, until the
   * rule is used up, removed, or the test ends.
   */
  InjectedFault respond(FaultRule rule);

  /** Removes every rule of this scope. Done after each test. */
  void clear();

  /**
   * What was injected and, in between, every request the controllers made through the proxy with
   * its status: one line each, oldest first (the last few thousand); for a test's scoped view,
   * since the test started. The failure report has the lines of the failed test as {@code
   * faults.txt}.
   */
  List<String> log();

  /** A client configuration with the same identity as {@code config}, routed through the proxy. */
  Config route(Config config);

  /** The URL the controllers' clients connect to (the proxy's), e.g. for a kubeconfig. */
  String proxyUrl();

  /**
   * The delivery of watch events to the controllers: hold, release in a seeded order, resend, end
   * (see docs/races.md).
   */
  Watches watches();

  /** A view whose rules and dropped watches are limited to {@code namespace}. */
  Faults inNamespace(String namespace);
}
