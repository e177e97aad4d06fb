package io.github.kubeharness.assertions;

import static io.github.kubeharness.assertions.ShouldBeOwnedBy.shouldBeOwnedBy;
import static io.github.kubeharness.assertions.ShouldHaveCondition.shouldHaveCondition;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.github.kubeharness.assertions.ObjectView.Condition;
import java.util.List;
import java.util.Objects;
import org.assertj.core.api.AbstractObjectAssert;

/**
 * An AssertJ assertion on one Kubernetes object as it is now: its {@code status.conditions} and its
 * owner references, for any kind (typed custom resource, {@code GenericKubernetesResource} or
 * built-in). {@link KubeAssertions#eventually} runs these checks against a watched object until
 * they pass; use this class directly on an object already in hand:
 *
 * <pre>{@code
 * assertThatResource(widget).hasCondition("Ready", "True").isOwnedBy(guestbook);
 * }</pre>
 *
 * @param <T> the object's type
 */
public class ResourceAssert<T extends HasMetadata>
    extends AbstractObjectAssert<ResourceAssert<T>, T> {

  /** An assertion on {@code actual}; see {@link KubeAssertions#assertThatResource}. */
  @SuppressWarnings({"unchecked", "rawtypes"})
  public ResourceAssert(T actual) {
    super(actual, (Class) ResourceAssert.class);
  }

  /**
   * Verifies that {@code status.conditions} holds a condition of {@code type} whose status is
   * {@code status} ({@code "True"}, {@code "False"} or {@code "Unknown"}).
   */
  public ResourceAssert<T> hasCondition(String type, String status) {
    return hasCondition(type, status, null);
  }

  /**
   * Verifies that {@code status.conditions} holds a condition of {@code type} with {@code status}
   * and, unless {@code reason} is null, {@code reason}.
   */
  public ResourceAssert<T> hasCondition(String type, String status, String reason) {
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(status, "status");
    isNotNull();
    List<Condition> conditions = ObjectView.conditions(actual);
    boolean found =
        conditions.stream()
            .anyMatch(
                c ->
                    type.equals(c.type())
                        && status.equals(c.status())
                        && (reason == null || reason.equals(c.reason())));
    if (!found) {
      throw assertionError(shouldHaveCondition(actual, type, status, reason));
    }
    return myself;
  }

  /**
   * Verifies that the object has an owner reference to {@code owner}: same uid, kind and name.
   *
   * @param owner the owner as read from the API server (it must have a uid)
   * @throws IllegalArgumentException when {@code owner} has no {@code metadata.uid}, i.e. it is a
   *     locally built object rather than the one {@code create()} or {@code get()} returned
   */
  public ResourceAssert<T> isOwnedBy(HasMetadata owner) {
    requireUid(owner);
    isNotNull();
    List<OwnerReference> references = actual.getMetadata().getOwnerReferences();
    boolean owned =
        references != null
            && references.stream()
                .anyMatch(
                    ref ->
                        owner.getMetadata().getUid().equals(ref.getUid())
                            && owner.getKind().equals(ref.getKind())
                            && owner.getMetadata().getName().equals(ref.getName()));
    if (!owned) {
      throw assertionError(shouldBeOwnedBy(actual, owner));
    }
    return myself;
  }

  static void requireUid(HasMetadata owner) {
    Objects.requireNonNull(owner, "owner");
    if (owner.getMetadata() == null || owner.getMetadata().getUid() == null) {
      throw new IllegalArgumentException(
          "owner "
              + owner.getKind()
              + " "
              + (owner.getMetadata() == null ? null : owner.getMetadata().getName())
              + " has no metadata.uid: pass the object returned by create() or get(), not the"
              + " one you built");
    }
  }
}
