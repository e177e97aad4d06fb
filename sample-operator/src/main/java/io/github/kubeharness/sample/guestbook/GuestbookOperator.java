package io.github.kubeharness.sample.guestbook;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.extended.leaderelection.LeaderCallbacks;
import io.fabric8.kubernetes.client.utils.Utils;
import io.github.kubeharness.sample.guestbook.customresource.Guestbook;
import io.github.kubeharness.sample.guestbook.webhook.CaBundleInjector;
import io.github.kubeharness.sample.guestbook.webhook.GuestbookWebhookServer;
import io.github.kubeharness.sample.guestbook.webhook.WebhookCertificates;
import io.javaoperatorsdk.operator.Operator;
import io.javaoperatorsdk.operator.api.config.LeaderElectionConfigurationBuilder;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Guestbook operator's main class: connects to the cluster (the current kubeconfig, or the
 * in-cluster ServiceAccount when deployed), serves health probes, optionally elects a leader, runs
 * the {@link GuestbookReconciler} and shuts down gracefully on SIGTERM. Flags and environment
 * variables: {@link OperatorSettings}.
 */
public final class GuestbookOperator implements AutoCloseable {

  /** Name of the leader-election Lease. */
  public static final String LEASE_NAME = "guestbook-operator-leader";

  /** The deployed webhook configurations (config/webhook with config/default's prefix). */
  public static final String MUTATING_WEBHOOK_CONFIGURATION =
      "guestbook-mutating-webhook-configuration";

  public static final String VALIDATING_WEBHOOK_CONFIGURATION =
      "guestbook-validating-webhook-configuration";

  private static final Logger LOG = LoggerFactory.getLogger(GuestbookOperator.class);

  private final Operator operator;
  private final CountDownLatch stopped = new CountDownLatch(1);
  private volatile boolean stopping;
  private HealthProbes probes;
  private GuestbookWebhookServer webhooks;

  private GuestbookOperator(OperatorSettings settings, KubernetesClient client) {
    this.operator =
        new Operator(
            o -> {
              o.withKubernetesClient(client)
                  .withCloseClientOnStop(true)
                  // in-flight reconciliations get this long to finish on shutdown
                  .withReconciliationTerminationTimeout(Duration.ofSeconds(10));
              if (settings.leaderElection()) {
                o.withLeaderElectionConfiguration(
                    LeaderElectionConfigurationBuilder.aLeaderElectionConfiguration(LEASE_NAME)
                        .withLeaseNamespace(settings.leaseNamespace())
                        // JOSDK would System.exit on any loss of leadership, including the one
                        // our own shutdown causes; onStopLeading below tells them apart.
                        .withExitOnStopLeading(false)
                        .withLeaderCallbacks(
                            new LeaderCallbacks(
                                () -> LOG.info("Became leader: reconciling"),
                                this::onStopLeading,
                                leader -> {}))
                        .build());
              }
            });
    operator.register(
        new GuestbookReconciler(),
        o -> {
          if (!settings.namespaces().isEmpty()) {
            o.settingNamespaces(settings.namespaces());
          }
        });
  }

  /**
   * Starts the operator: probes first (so the kubelet gets answers while caches sync), then the
   * controller. Returns once the informers have synced; throws if they cannot (for example when the
   * CRD is not installed), with the fix in the message.
   */
  public static GuestbookOperator start(OperatorSettings settings, KubernetesClient client) {
    GuestbookOperator running = new GuestbookOperator(settings, client);
    running.probes =
        HealthProbes.start(settings.probeAddress(), running.operator, () -> running.stopping);
    LOG.info(
        "Guestbook operator starting against {} (namespaces: {}, leader election: {}, probes on {})",
        client.getConfiguration().getMasterUrl(),
        settings.namespaces().isEmpty() ? "all" : settings.namespaces(),
        settings.leaderElection() ? "Lease " + settings.leaseNamespace() + "/" + LEASE_NAME : "off",
        running.probes.address());
    try {
      if (settings.webhookAddress() != null) {
        running.webhooks = startWebhooks(settings, client);
      }
      running.operator.start();
    } catch (RuntimeException e) {
      running.close();
      throw new IllegalStateException(
          "The Guestbook operator could not start against "
              + client.getConfiguration().getMasterUrl()
              + ": "
              + rootCause(e)
              + hint(e),
          e);
    }
    LOG.info("Guestbook operator started");
    return running;
  }

  /**
   * Serves the webhooks before reconciling starts, so that /readyz (which waits for the operator)
   * never reports ready while the API server cannot call them yet.
   */
  private static GuestbookWebhookServer startWebhooks(
      OperatorSettings settings, KubernetesClient client) {
    String service = settings.webhookService();
    String namespace = settings.podNamespace();
    List<String> dnsNames =
        List.of(
            service,
            service + "." + namespace,
            service + "." + namespace + ".svc",
            service + "." + namespace + ".svc.cluster.local");
    InetAddress bound = settings.webhookAddress().getAddress();
    List<String> ips =
        bound == null || bound.isAnyLocalAddress() ? List.of() : List.of(bound.getHostAddress());
    WebhookCertificates certificates =
        WebhookCertificates.obtain(
            client, namespace, OperatorSettings.WEBHOOK_SECRET, dnsNames, ips);
    GuestbookWebhookServer server =
        GuestbookWebhookServer.start(settings.webhookAddress(), certificates);
    try {
      CaBundleInjector.inject(
          client,
          certificates.caPem(),
          MUTATING_WEBHOOK_CONFIGURATION,
          VALIDATING_WEBHOOK_CONFIGURATION,
          HasMetadata.getFullResourceName(Guestbook.class));
      return server;
    } catch (RuntimeException e) {
      server.close();
      throw e;
    }
  }

  /** The running JOSDK operator. */
  public Operator operator() {
    return operator;
  }

  /** Where /healthz and /readyz are served, with the port actually bound. */
  public InetSocketAddress probeAddress() {
    return probes.address();
  }

  /** Blocks until {@link #close()} has finished. */
  public void awaitStop() throws InterruptedException {
    stopped.await();
  }

  /**
   * Stops gracefully: /readyz turns 503 at once, in-flight reconciliations finish (up to 10 s),
   * informers and leader election stop, then the probe server.
   */
  @Override
  public synchronized void close() {
    if (stopped.getCount() == 0) {
      return;
    }
    stopping = true;
    LOG.info("Guestbook operator stopping");
    try {
      operator.stop();
    } finally {
      if (webhooks != null) {
        webhooks.close();
      }
      if (probes != null) {
        probes.close();
      }
      stopped.countDown();
      LOG.info("Guestbook operator stopped");
    }
  }

  private void onStopLeading() {
    if (!stopping) {
      // Another instance may already be reconciling: stop at once, as controller-runtime does.
      LOG.error(
          "Lost the leader-election Lease {}; exiting so one instance reconciles", LEASE_NAME);
      System.exit(1);
    }
  }

  /** Runs the operator until SIGTERM or Ctrl-C. */
  public static void main(String[] args) throws InterruptedException {
    OperatorSettings settings;
    try {
      settings = OperatorSettings.parse(args, System.getenv());
    } catch (IllegalArgumentException e) {
      System.err.println(e.getMessage());
      System.exit(2);
      return;
    }
    GuestbookOperator running;
    try {
      running = start(settings, new KubernetesClientBuilder().withConfig(clusterConfig()).build());
    } catch (RuntimeException e) {
      LOG.error(e.getMessage());
      LOG.debug("Start-up failure", e);
      System.exit(1);
      return;
    }
    Runtime.getRuntime().addShutdownHook(new Thread(running::close, "guestbook-operator-shutdown"));
    running.awaitStop();
  }

  /**
   * The kubeconfig's cluster, or the in-cluster one in a pod. NB: with neither, fabric8 would try
   * https://kubernetes.default.svc, which outside a pod means a DNS lookup and a confusing error.
   */
  private static Config clusterConfig() {
    Config config = Config.autoConfigure(null);
    if (config.getFile() == null
        && Utils.getSystemPropertyOrEnvVar(Config.KUBERNETES_SERVICE_HOST_PROPERTY) == null
        && Utils.getSystemPropertyOrEnvVar(Config.KUBERNETES_MASTER_SYSTEM_PROPERTY) == null) {
      throw new IllegalStateException(
          "No cluster to connect to: no kubeconfig (KUBECONFIG is unset or names no file, and"
              + " ~/.kube/config does not exist) and not running in a pod. Point KUBECONFIG at a"
              + " cluster; `make dev` starts a local one and prints its kubeconfig.");
    }
    return config;
  }

  private static String rootCause(Throwable e) {
    Throwable t = e;
    while (t.getCause() != null && t.getCause() != t) {
      t = t.getCause();
    }
    return t.getMessage() == null ? t.toString() : t.getMessage();
  }

  private static String hint(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
      if (t instanceof KubernetesClientException k && k.getCode() == 404) {
        return ". Is the Guestbook CRD installed? Install it with `make install`"
            + " (kubectl apply -k sample-operator/config/crd).";
      }
      if (t instanceof KubernetesClientException k && k.getCode() == 403) {
        return ". The operator's identity lacks a permission: compare it with config/rbac.";
      }
    }
    return ". Check that the cluster in the current kubeconfig (or the in-cluster config) is"
        + " reachable.";
  }
}
