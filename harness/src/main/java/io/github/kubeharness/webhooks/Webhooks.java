package io.github.kubeharness.webhooks;

import io.github.kubeharness.ControlPlane;
import java.util.List;

/**
 * A project's webhooks served in the test JVM, as envtest serves them: on 127.0.0.1 over TLS with a
 * serving certificate from a CA of kube-harness's, each configuration's {@code clientConfig}
 * rewritten to that server, applied, and awaited until the API server really calls it.
 *
 * <p>In a {@code @ControllerTest} class, {@code webhooks} and {@code webhookHandlers} do all of
 * this for every test's namespace, and an injected {@code Webhooks} tells what was called. From
 * plain Java, {@link io.github.kubeharness.launch.WebhookServers} serves them:
 *
 * <pre>{@code
 * try (Webhooks webhooks =
 *     WebhookServers.serve(controlPlane, List.of("config/webhook"), new MyHandlers())) {
 *   webhooks.installCrds(List.of("config/crd/bases"), List.of());  // conversion webhooks rewritten
 *   try (AutoCloseable installed = webhooks.install("my-namespace")) {
 *     ...
 *   }
 * }
 * }</pre>
 */
public interface Webhooks extends AutoCloseable {

  /**
   * Installs CRDs as {@link ControlPlane#installCrds} does, with each conversion webhook (the CRD's
   * own, or the manifests' patch for it) pointed at this server.
   *
   * @return how many CRDs were new or changed
   */
  int installCrds(List<String> crds, List<Class<?>> crdClasses);

  /**
   * Applies the admission configurations for objects in {@code namespace} (and cluster-scoped
   * ones): renamed {@code <name>-<namespace>}, namespace selector narrowed to it. Returns once the
   * API server calls them; closing the result deletes them.
   */
  AutoCloseable install(String namespace);

  /** The calls the API server made to these webhooks (in a test: since the test started). */
  List<WebhookCall> calls();

  /**
   * Certificate files for a webhook server the test runs itself ({@link WebhookRoutes#external}).
   */
  WebhookTls tls();

  /** The URL the API server is given for a path of the manifests. */
  String url(String path);

  /** Removes the configurations still installed and stops serving. */
  @Override
  void close();
}
