package io.github.kubeharness.sample.guestbook.dependent;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.github.kubeharness.sample.guestbook.customresource.Guestbook;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.processing.dependent.kubernetes.CRUDKubernetesDependentResource;
import java.util.Map;

/**
 * The ConfigMap holding a Guestbook's message: as {@code message}, and as the {@code index.html}
 * the web server serves (the Deployment mounts it, so a new message is shown without a restart).
 */
public class ConfigMapDependentResource
    extends CRUDKubernetesDependentResource<ConfigMap, Guestbook> {

  /** Key of the page the web server serves. */
  public static final String PAGE = "index.html";

  /** Key of the raw message. */
  public static final String MESSAGE = "message";

  /** A dependent configured to watch the operator's labelled ConfigMaps. */
  public ConfigMapDependentResource() {
    super(ConfigMap.class);
    configureWith(Children.config(ConfigMap.class));
  }

  @Override
  protected ConfigMap desired(Guestbook guestbook, Context<Guestbook> context) {
    String message = guestbook.getSpec().getMessage();
    return new ConfigMapBuilder()
        .withMetadata(Children.metadata(guestbook))
        .withData(Map.of(MESSAGE, message, PAGE, page(guestbook.getMetadata().getName(), message)))
        .build();
  }

  static String page(String name, String message) {
    return "<!DOCTYPE html>\n<html><head><title>"
        + escape(name)
        + "</title></head>\n<body><h1>"
        + escape(message)
        + "</h1></body></html>\n";
  }

  private static String escape(String text) {
    return text.replace("&", "&amp;")
        .replace("<", "&lt;")
        .replace(">", "&gt;")
        .replace("\"", "&quot;");
  }
}
