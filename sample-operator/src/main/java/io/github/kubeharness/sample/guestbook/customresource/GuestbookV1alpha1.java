package io.github.kubeharness.sample.guestbook.customresource;

import io.fabric8.generator.annotation.Default;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Kind;
import io.fabric8.kubernetes.model.annotation.ShortNames;
import io.fabric8.kubernetes.model.annotation.Version;

/**
 * The Guestbook's first version, {@code webapp.example.com/v1alpha1}, still served for clients
 * written against it, as kubebuilder's multi-version tutorial keeps its {@code v1}: it counted
 * {@code spec.size} where {@code v1} has {@code spec.replicas}. Objects are stored as {@code v1};
 * the conversion webhook ({@code GuestbookConversion}) translates between the two.
 */
@Group(Guestbook.GROUP)
@Version(value = GuestbookV1alpha1.VERSION, storage = false)
@Kind("Guestbook")
@ShortNames("gb")
public class GuestbookV1alpha1 extends CustomResource<GuestbookV1alpha1Spec, GuestbookStatus>
    implements Namespaced {

  /** The older served version. */
  public static final String VERSION = "v1alpha1";

  @Override
  @Default("{}")
  public GuestbookV1alpha1Spec getSpec() {
    return super.getSpec();
  }
}
