package io.github.kubeharness.internal.junit;

import io.github.kubeharness.internal.manifest.CrdInstaller;
import io.github.kubeharness.internal.manifest.ManifestFiles;
import io.github.kubeharness.internal.webhooks.WebhookSet;
import io.github.kubeharness.webhooks.WebhookCall;
import io.github.kubeharness.webhooks.WebhookHandlers;
import io.github.kubeharness.webhooks.WebhookTls;
import io.github.kubeharness.webhooks.Webhooks;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The webhooks of one {@code @ControllerTest} class: its handlers on the cluster's webhook server
 * for as long as the class runs, kept in the class store. Each test's namespace gets the
 * configurations through {@link #install}.
 */
final class ClassWebhooks implements JUnitResource {

  private final WebhookSet set;
  private final List<WebhookHandlers> handlers;

  private ClassWebhooks(WebhookSet set, List<WebhookHandlers> handlers) {
    this.set = set;
    this.handlers = handlers;
  }

  /** The class's webhooks, when it serves any; its handlers are made and registered here. */
  static Optional<ClassWebhooks> open(SharedCluster cluster, ExtensionConfig config) {
    if (config.webhooks().isEmpty()) {
      return Optional.empty();
    }
    String where = "@ControllerTest on " + config.testClass().getName();
    List<WebhookHandlers> handlers = new ArrayList<>();
    for (Class<?> type : config.webhookHandlers()) {
      handlers.add(
          (WebhookHandlers)
              ControllerClasses.instantiate(type, cluster.admin(), where + " webhookHandlers"));
    }
    WebhookSet set =
        WebhookSet.create(
            cluster.webhookServer(where),
            cluster.controlPlane(),
            cluster.admin(),
            config.webhooks(),
            handlers,
            where);
    return Optional.of(new ClassWebhooks(set, handlers));
  }

  /**
   * Installs the class's CRDs, each conversion webhook pointed at the class's handler; without
   * webhooks a CRD that converts by webhook is an error naming the fix.
   */
  static void installCrds(
      SharedCluster cluster, ExtensionConfig config, Optional<ClassWebhooks> webhooks) {
    String where = "@ControllerTest on " + config.testClass().getName();
    List<ManifestFiles.Document> documents =
        CrdInstaller.documents(config.crds(), config.crdClasses());
    if (webhooks.isPresent()) {
      documents = webhooks.get().set.withConversion(documents, where);
    } else {
      WebhookSet.requireNoConversionWebhook(documents, where);
    }
    if (!documents.isEmpty()) {
      cluster.controlPlane().installCrdDocuments(documents);
    }
  }

  /** Applies the admission configurations for {@code namespace}; closing removes them. */
  AutoCloseable install(String namespace) {
    return set.install(namespace);
  }

  /** What a test sees: the calls since {@code started}; closing it leaves the class's alone. */
  Webhooks since(Instant started) {
    return new Webhooks() {
      @Override
      public int installCrds(List<String> crds, List<Class<?>> crdClasses) {
        return set.installCrds(crds, crdClasses);
      }

      @Override
      public AutoCloseable install(String namespace) {
        return set.install(namespace);
      }

      @Override
      public List<WebhookCall> calls() {
        return set.callsSince(started);
      }

      @Override
      public WebhookTls tls() {
        return set.tls();
      }

      @Override
      public String url(String path) {
        return set.url(path);
      }

      @Override
      public void close() {
        // the class's webhooks end with the class
      }
    };
  }

  /**
   * Unmounts the handlers and closes those that are {@code AutoCloseable} (a server of their own).
   */
  @Override
  public void close() {
    try {
      set.close();
    } finally {
      for (WebhookHandlers h : handlers) {
        if (h instanceof AutoCloseable closeable) {
          try {
            closeable.close();
          } catch (Exception e) {
            System.err.println(
                "[kube-harness] closing " + h.getClass().getName() + " failed: " + e);
          }
        }
      }
    }
  }
}
