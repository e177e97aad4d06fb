package io.github.kubeharness.internal.webhooks;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.github.kubeharness.KubeHarnessException;
import io.github.kubeharness.internal.backend.HarnessControlPlane;
import io.github.kubeharness.internal.manifest.CrdInstaller;
import io.github.kubeharness.internal.manifest.ManifestFiles;
import io.github.kubeharness.webhooks.WebhookCall;
import io.github.kubeharness.webhooks.WebhookHandlers;
import io.github.kubeharness.webhooks.WebhookTls;
import io.github.kubeharness.webhooks.Webhooks;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One project's webhooks on a {@link WebhookServer}: its handlers mounted under a prefix of their
 * own (so that test classes sharing the server never call each other's), its CRDs' conversion
 * pointed at the server, its admission configurations applied per namespace and awaited.
 */
public final class WebhookSet implements Webhooks {

  private static final AtomicInteger SETS = new AtomicInteger();

  private final WebhookServer server;
  private final HarnessControlPlane controlPlane;
  private final KubernetesClient admin;
  // serve's set owns its server and client; a class's set borrows the cluster's.
  private final boolean ownsServerAndClient;
  private final WebhookManifests manifests;
  private final CollectedRoutes routes;
  private final CrdConversion conversion;
  private final String prefix = "/set-" + SETS.incrementAndGet();
  private final Instant created = Instant.now();
  private final List<Installation> installed = new ArrayList<>();

  private WebhookSet(
      WebhookServer server,
      HarnessControlPlane controlPlane,
      KubernetesClient admin,
      boolean ownsServerAndClient,
      WebhookManifests manifests,
      CollectedRoutes routes) {
    this.server = server;
    this.controlPlane = controlPlane;
    this.admin = admin;
    this.ownsServerAndClient = ownsServerAndClient;
    this.manifests = manifests;
    this.routes = routes;
    this.conversion = new CrdConversion(server, manifests, routes);
  }

  /**
   * The webhooks of plain Java code (the front door's {@code WebhookServers.serve}): a server of
   * their own and a client of their own, closed with the set.
   */
  public static WebhookSet serve(
      HarnessControlPlane controlPlane,
      List<String> manifests,
      WebhookHandlers handlers,
      String where) {
    // The client first: a control plane not started yet fails there, naming that.
    KubernetesClient admin = controlPlane.newClient();
    WebhookServer server = null;
    try {
      server = WebhookServer.on(controlPlane, where);
      AdmissionConfigs.sweepOrphans(admin);
      return create(server, controlPlane, admin, true, manifests, List.of(handlers), where);
    } catch (RuntimeException e) {
      if (server != null) {
        server.close();
      }
      admin.close();
      throw e;
    }
  }

  /**
   * A set on a shared {@code server} (the test JVM's), with the cluster's admin client; closing it
   * unmounts its handlers and leaves both.
   */
  public static WebhookSet create(
      WebhookServer server,
      HarnessControlPlane controlPlane,
      KubernetesClient admin,
      List<String> manifestEntries,
      List<WebhookHandlers> handlers,
      String where) {
    return create(server, controlPlane, admin, false, manifestEntries, handlers, where);
  }

  private static WebhookSet create(
      WebhookServer server,
      HarnessControlPlane controlPlane,
      KubernetesClient admin,
      boolean ownsServerAndClient,
      List<String> manifestEntries,
      List<WebhookHandlers> handlers,
      String where) {
    WebhookManifests manifests = WebhookManifests.read(manifestEntries);
    CollectedRoutes routes = new CollectedRoutes(server::tls, where);
    for (WebhookHandlers h : handlers) {
      try {
        h.register(routes);
      } catch (KubeHarnessException e) {
        throw e;
      } catch (Exception e) {
        throw new KubeHarnessException(
            where + ": " + h.getClass().getName() + ".register failed: " + e, e);
      }
    }
    requireHandlers(manifests, routes, where);
    WebhookSet set =
        new WebhookSet(server, controlPlane, admin, ownsServerAndClient, manifests, routes);
    for (CollectedRoutes.Target target : routes.targets().values()) {
      if (!target.external()) {
        server.mount(set.prefix + target.path(), target.route());
      }
    }
    return set;
  }

  private static void requireHandlers(
      WebhookManifests manifests, CollectedRoutes routes, String where) {
    Map<String, CollectedRoutes.Target> targets = routes.targets();
    for (String path : manifests.admissionPaths()) {
      CollectedRoutes.Target target = targets.get(path);
      if (target == null || !target.admission()) {
        throw new KubeHarnessException(
            where
                + ": the webhook manifests call "
                + path
                + ", but "
                + (target == null
                    ? "no handler serves it (registered: " + new TreeSet<>(targets.keySet()) + ")"
                    : "its handler is a conversion handler")
                + ". Register it in the WebhookHandlers: routes.admission(\""
                + path
                + "\", ...).");
      }
    }
  }

  /**
   * {@code documents} with every conversion webhook (a CRD's own, or the manifests' patch for it)
   * pointed at this set's handler; other CRDs unchanged.
   */
  public List<ManifestFiles.Document> withConversion(
      List<ManifestFiles.Document> documents, String where) {
    return conversion.rewrite(documents, where);
  }

  /** {@link CrdConversion#requireNone}, for the callers outside this package. */
  public static void requireNoConversionWebhook(
      List<ManifestFiles.Document> documents, String where) {
    CrdConversion.requireNone(documents, where);
  }

  @Override
  public int installCrds(List<String> crds, List<Class<?>> crdClasses) {
    return controlPlane.installCrdDocuments(
        withConversion(CrdInstaller.documents(crds, crdClasses), "Webhooks"));
  }

  @Override
  public synchronized AutoCloseable install(String namespace) {
    Set<Integer> called = ConcurrentHashMap.newKeySet();
    String probes = prefix + "/kube-harness-probe/" + namespace + "/";
    List<WebhookManifests.Rendered> rendered =
        manifests.render(
            namespace,
            this::url,
            server.caBundle(),
            i -> server.url(probes + i),
            AdmissionConfigs.labels(namespace));
    Installation installation = new Installation(namespace, probes);
    installed.add(installation);
    try {
      for (int i = 0; i < rendered.size(); i++) {
        int index = i;
        server.mount(probes + i, WebhookRoute.probe(probes + i, () -> called.add(index)));
        WebhookManifests.Rendered config = rendered.get(i);
        for (WebhookManifests.Timeout timeout : config.timeouts()) {
          server.timeout(prefix + timeout.path(), timeout.seconds());
        }
        installation.applied.add(AdmissionConfigs.create(admin, config));
      }
      if (!rendered.isEmpty()) {
        Set<Integer> expected = new TreeSet<>();
        for (int i = 0; i < rendered.size(); i++) {
          expected.add(i);
        }
        WebhookProbe.await(
            admin,
            namespace,
            expected,
            called,
            server.url(probes),
            new TreeSet<>(rendered.stream().map(WebhookManifests.Rendered::name).toList()));
      }
      return installation;
    } catch (RuntimeException e) {
      try {
        installation.close();
      } catch (RuntimeException closing) {
        e.addSuppressed(closing);
      }
      throw e;
    }
  }

  /** {@link AdmissionConfigs#sweepOrphans}, for the callers outside this package. */
  public static void sweepOrphans(KubernetesClient admin) {
    AdmissionConfigs.sweepOrphans(admin);
  }

  @Override
  public List<WebhookCall> calls() {
    return callsSince(created);
  }

  /** The calls to this set's paths and to conversion webhooks since {@code since}. */
  public List<WebhookCall> callsSince(Instant since) {
    return server.calls(
        since, p -> p.startsWith(prefix + "/") || p.startsWith(ConversionPort.PREFIX));
  }

  @Override
  public WebhookTls tls() {
    return server.tls();
  }

  @Override
  public String url(String path) {
    CollectedRoutes.Target target = routes.targets().get(path);
    return target != null && target.external()
        ? target.externalUrl(path)
        : server.url(prefix + path);
  }

  @Override
  public synchronized void close() {
    RuntimeException failure = null;
    for (Installation installation : List.copyOf(installed)) {
      try {
        installation.close();
      } catch (RuntimeException e) {
        failure = failure == null ? e : failure;
      }
    }
    server.unmount(prefix + "/");
    if (ownsServerAndClient) {
      server.close();
      admin.close();
    }
    if (failure != null) {
      throw failure;
    }
  }

  /** The configurations applied for one namespace; closing deletes them. */
  final class Installation implements AutoCloseable {
    private final String namespace;
    private final String probes;
    private final List<HasMetadata> applied = new ArrayList<>();

    private Installation(String namespace, String probes) {
      this.namespace = namespace;
      this.probes = probes;
    }

    public String namespace() {
      return namespace;
    }

    @Override
    public void close() {
      synchronized (WebhookSet.this) {
        installed.remove(this);
      }
      RuntimeException failure = null;
      for (HasMetadata config : applied) {
        try {
          admin.resource(config).delete();
        } catch (RuntimeException e) {
          failure = failure == null ? e : failure;
        }
      }
      applied.clear();
      server.unmount(probes);
      if (failure != null) {
        throw new KubeHarnessException(
            "Cannot delete the webhook configurations of " + namespace + ": " + failure, failure);
      }
    }
  }
}
