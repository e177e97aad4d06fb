package io.github.kubeharness.assertions;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.OwnerReference;
import java.util.List;
import org.assertj.core.error.BasicErrorMessageFactory;
import org.assertj.core.error.ErrorMessageFactory;

/**
 * The message of a failed ownership check: the owner wanted (with its uid, since a re-created owner
 * has the same name but a new uid) and every owner reference the object has.
 */
final class ShouldBeOwnedBy extends BasicErrorMessageFactory {

  private ShouldBeOwnedBy(String target, String owner, String found) {
    super(
        "%nExpecting %s%nto be owned by %s, but %s",
        unquotedString(target), unquotedString(owner), unquotedString(found));
  }

  /** The message for {@code actual} having no owner reference to {@code owner}. */
  static ErrorMessageFactory shouldBeOwnedBy(HasMetadata actual, HasMetadata owner) {
    return new ShouldBeOwnedBy(ObjectView.describe(actual), owner(owner), found(actual));
  }

  /** {@code Widget w (uid 1f3c…)}. */
  static String owner(HasMetadata owner) {
    return owner.getKind()
        + " "
        + owner.getMetadata().getName()
        + " (uid "
        + owner.getMetadata().getUid()
        + ")";
  }

  private static String found(HasMetadata actual) {
    List<OwnerReference> references = actual.getMetadata().getOwnerReferences();
    if (references == null || references.isEmpty()) {
      return "it has no ownerReferences";
    }
    StringBuilder found = new StringBuilder("its ownerReferences are:");
    for (OwnerReference ref : references) {
      found
          .append("\n  ")
          .append(ref.getApiVersion())
          .append(' ')
          .append(ref.getKind())
          .append(' ')
          .append(ref.getName())
          .append(" (uid ")
          .append(ref.getUid())
          .append(Boolean.TRUE.equals(ref.getController()) ? ", controller" : "")
          .append(')');
    }
    return found.toString();
  }
}
