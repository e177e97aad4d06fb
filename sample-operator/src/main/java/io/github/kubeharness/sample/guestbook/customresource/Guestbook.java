package io.github.kubeharness.sample.guestbook.customresource;

import io.fabric8.crd.generator.annotation.AdditionalPrinterColumn;
import io.fabric8.generator.annotation.Default;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.ShortNames;
import io.fabric8.kubernetes.model.annotation.Version;

/**
 * A Guestbook: the kubebuilder quick-start's custom resource ({@code webapp.example.com/v1}). The
 * operator runs it as a ConfigMap holding the message, a Deployment serving it and a Service in
 * front. The CRD in {@code config/crd/bases} is generated from this class and its spec and status.
 */
@Group(Guestbook.GROUP)
@Version(Guestbook.VERSION)
@ShortNames("gb")
@AdditionalPrinterColumn(
    name = "Replicas",
    jsonPath = ".spec.replicas",
    type = AdditionalPrinterColumn.Type.INTEGER)
@AdditionalPrinterColumn(
    name = "Ready",
    jsonPath = ".status.readyReplicas",
    type = AdditionalPrinterColumn.Type.INTEGER)
// Declaring any printer column hides kubectl's implicit AGE column, so it is declared too.
@AdditionalPrinterColumn(
    name = "Age",
    jsonPath = ".metadata.creationTimestamp",
    type = AdditionalPrinterColumn.Type.DATE)
public class Guestbook extends CustomResource<GuestbookSpec, GuestbookStatus>
    implements Namespaced {

  /** The API group. */
  public static final String GROUP = "webapp.example.com";

  /** The only served version. */
  public static final String VERSION = "v1";

  /**
   * The desired state. Defaults to {@code {}} in the schema, so that a Guestbook created without a
   * spec gets every field's default instead of reaching the operator without one.
   */
  @Override
  @Default("{}")
  public GuestbookSpec getSpec() {
    return super.getSpec();
  }

  /** A Guestbook with the given name and an empty spec (all defaults), ready to create. */
  public static Guestbook named(String name) {
    Guestbook guestbook = new Guestbook();
    guestbook.getMetadata().setName(name);
    guestbook.setSpec(new GuestbookSpec());
    return guestbook;
  }
}
