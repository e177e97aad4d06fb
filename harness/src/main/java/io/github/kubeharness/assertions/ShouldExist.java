package io.github.kubeharness.assertions;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.github.kubeharness.assertions.ObjectView.Target;
import java.util.List;
import org.assertj.core.error.BasicErrorMessageFactory;
import org.assertj.core.error.ErrorMessageFactory;

/**
 * The messages of failed existence checks. An object that should be gone but is not usually waits
 * for a finalizer, so that message says whether deletion was requested and what it waits for.
 */
final class ShouldExist extends BasicErrorMessageFactory {

  private ShouldExist(String format, String target, String detail) {
    super(format, unquotedString(target), unquotedString(detail));
  }

  /** The message for an object that does not exist but should. */
  static ErrorMessageFactory shouldExist(Target target) {
    return new ShouldExist("%nExpecting %s to exist, but it does not%s", target.toString(), "");
  }

  /** The message for {@code actual} existing when it should not. */
  static ErrorMessageFactory shouldNotExist(Target target, HasMetadata actual) {
    return new ShouldExist(
        "%nExpecting %s not to exist, but it does (%s)", target.toString(), deletion(actual));
  }

  private static String deletion(HasMetadata actual) {
    String requested = actual.getMetadata().getDeletionTimestamp();
    if (requested == null) {
      return "no deletion requested: metadata.deletionTimestamp is not set";
    }
    List<String> finalizers = actual.getMetadata().getFinalizers();
    if (finalizers == null || finalizers.isEmpty()) {
      return "deletion requested at " + requested;
    }
    return "deletion requested at "
        + requested
        + ", waiting for a controller to remove finalizers "
        + finalizers;
  }
}
