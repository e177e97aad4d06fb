package io.github.kubeharness.samples.greeting;

import static io.github.kubeharness.assertions.KubeAssertions.eventually;
import static org.assertj.core.api.Assertions.assertThat;

import io.github.kubeharness.spring.EnableKubeHarness;
import io.github.kubeharness.spring.KubeHarness;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;

/**
 * Another configuration, so Spring caches a second context: the application runs as cluster-admin
 * here (no serviceAccount), on the same control plane as {@link GreetingOperatorIT}'s context.
 */
@SpringBootTest
@EnableKubeHarness(profile = "standard", crdClasses = Greeting.class)
class SharedControlPlaneIT {

  /** The API servers seen by the test classes of this JVM, Spring and @ControllerTest alike. */
  static final Set<String> API_SERVERS = ConcurrentHashMap.newKeySet();

  @Autowired KubeHarness kube;

  @Test
  void everyCachedContextSharesOneControlPlane() {
    // GreetingOperatorIT records its own too: whichever class runs second sees both.
    API_SERVERS.add(kube.controlPlane().apiServerUrl());
    assertThat(API_SERVERS).hasSize(1);
    kube.client().resources(Greeting.class).resource(Greeting.named("admin", "as admin")).create();
    eventually(kube.client().configMaps().withName("admin"))
        .satisfies(cm -> assertThat(cm.getData()).containsEntry("message", "as admin"));
  }
}
