package io.github.kubeharness.sample.guestbook.dependent;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.github.kubeharness.sample.guestbook.customresource.Guestbook;
import io.javaoperatorsdk.operator.api.config.informer.InformerConfiguration;
import io.javaoperatorsdk.operator.processing.dependent.kubernetes.KubernetesDependentResourceConfig;
import io.javaoperatorsdk.operator.processing.dependent.kubernetes.KubernetesDependentResourceConfigBuilder;
import java.util.Map;

/**
 * Names and labels shared by the objects a Guestbook owns. Each child has the Guestbook's name, so
 * {@code kubectl get deploy,svc,cm guestbook-sample} finds them all.
 */
public final class Children {

  /** Label every child carries; the operator's informers watch only objects that have it. */
  public static final String MANAGED_BY = "app.kubernetes.io/managed-by";

  /** Value of {@link #MANAGED_BY}. */
  public static final String OPERATOR = "guestbook-operator";

  private static final String NAME = "app.kubernetes.io/name";
  private static final String INSTANCE = "app.kubernetes.io/instance";

  private Children() {}

  /** Metadata of a child: same name and namespace as the Guestbook, with the common labels. */
  static ObjectMeta metadata(Guestbook guestbook) {
    return new ObjectMetaBuilder()
        .withName(guestbook.getMetadata().getName())
        .withNamespace(guestbook.getMetadata().getNamespace())
        .addToLabels(podSelector(guestbook))
        .addToLabels(MANAGED_BY, OPERATOR)
        .build();
  }

  /** Labels that select the Guestbook's pods; a Deployment's selector is immutable, keep it so. */
  static Map<String, String> podSelector(Guestbook guestbook) {
    return Map.of(NAME, "guestbook", INSTANCE, guestbook.getMetadata().getName());
  }

  /**
   * Configuration of a dependent: server-side apply, and an informer on labelled objects in the
   * namespaces the controller watches.
   *
   * <p>NB: JOSDK applies ConfigMaps with a plain update unless told otherwise; SSA is asked for
   * explicitly so that every child is written the same way (and needs the same RBAC verbs). And
   * without the explicit namespace inheritance, a configured dependent informer would watch every
   * namespace (JOSDK's default for a fresh informer configuration).
   */
  static <R extends HasMetadata> KubernetesDependentResourceConfig<R> config(Class<R> type) {
    return new KubernetesDependentResourceConfigBuilder<R>()
        .withUseSSA(true)
        .withKubernetesDependentInformerConfig(
            InformerConfiguration.builder(type)
                .withLabelSelector(MANAGED_BY + "=" + OPERATOR)
                .withNamespacesInheritedFromController()
                .build())
        .build();
  }
}
