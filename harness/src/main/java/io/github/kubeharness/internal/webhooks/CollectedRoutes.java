package io.github.kubeharness.internal.webhooks;

import io.github.kubeharness.KubeHarnessException;
import io.github.kubeharness.webhooks.AdmissionHandler;
import io.github.kubeharness.webhooks.ConversionHandler;
import io.github.kubeharness.webhooks.RawWebhookHandler;
import io.github.kubeharness.webhooks.WebhookRoutes;
import io.github.kubeharness.webhooks.WebhookTls;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.function.Supplier;

/** What a project's {@code WebhookHandlers} registered, path by path. */
final class CollectedRoutes implements WebhookRoutes {

  /** A path's handler: served here ({@code route}) or by the test's own server ({@code port}). */
  record Target(String path, WebhookRoute route, int port, boolean conversion, boolean admission) {
    boolean external() {
      return route == null;
    }

    /** Where the API server reaches {@code path} of an external target: the test's own server. */
    String externalUrl(String path) {
      return "https://127.0.0.1:" + port + path;
    }
  }

  private final Map<String, Target> targets = new LinkedHashMap<>();
  private final Supplier<WebhookTls> tls;
  private final String where;

  CollectedRoutes(Supplier<WebhookTls> tls, String where) {
    this.tls = tls;
    this.where = where;
  }

  @Override
  public WebhookRoutes admission(String path, AdmissionHandler handler) {
    Objects.requireNonNull(handler, "handler");
    return add(new Target(check(path), WebhookRoute.admission(path, handler), 0, false, true));
  }

  @Override
  public WebhookRoutes conversion(String path, ConversionHandler handler) {
    Objects.requireNonNull(handler, "handler");
    return add(new Target(check(path), WebhookRoute.conversion(path, handler), 0, true, false));
  }

  @Override
  public WebhookRoutes raw(String path, RawWebhookHandler handler) {
    Objects.requireNonNull(handler, "handler");
    return add(new Target(check(path), WebhookRoute.raw(path, handler), 0, true, true));
  }

  @Override
  public WebhookRoutes external(String path, int port) {
    if (port < 1 || port > 65535) {
      throw new KubeHarnessException(
          where + ": external(" + path + ", " + port + ") needs the port the server listens on.");
    }
    return add(new Target(check(path), null, port, true, true));
  }

  @Override
  public WebhookTls tls() {
    return tls.get();
  }

  Map<String, Target> targets() {
    return targets;
  }

  private WebhookRoutes add(Target target) {
    if (targets.putIfAbsent(target.path(), target) != null) {
      throw new KubeHarnessException(
          where + " registers two handlers for " + target.path() + "; keep one.");
    }
    return this;
  }

  private String check(String path) {
    if (path == null || !path.startsWith("/")) {
      throw new KubeHarnessException(
          where
              + ": webhook path '"
              + path
              + "' must start with '/', as clientConfig.service.path does.");
    }
    return path;
  }
}
