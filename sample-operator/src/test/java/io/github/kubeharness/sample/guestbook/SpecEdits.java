package io.github.kubeharness.sample.guestbook;

import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.github.kubeharness.sample.guestbook.customresource.Guestbook;
import io.github.kubeharness.sample.guestbook.customresource.GuestbookSpec;
import java.util.function.Consumer;

/** How the tests change a Guestbook's spec, as {@code kubectl edit} would. */
final class SpecEdits {

  private SpecEdits() {}

  /** Read, change, write; on a conflict (the operator wrote the status meanwhile) again. */
  static void edit(Resource<Guestbook> guestbook, Consumer<GuestbookSpec> change) {
    for (int attempt = 1; ; attempt++) {
      try {
        guestbook.edit(
            g -> {
              change.accept(g.getSpec());
              return g;
            });
        return;
      } catch (KubernetesClientException e) {
        if (e.getCode() != 409 || attempt == 10) {
          throw e;
        }
      }
    }
  }
}
