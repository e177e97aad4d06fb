package io.github.kubeharness.assertions;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.github.kubeharness.KubeHarnessException;
import io.github.kubeharness.Settings;
import io.github.kubeharness.settings.HarnessSettings;
import java.time.Duration;
import java.util.Objects;

/**
 * The entry point of kube-harness's assertions on Kubernetes objects: {@code eventually} waits for
 * an object to reach a state, {@code consistently} verifies that it keeps one, both driven by a
 * watch on the object rather than by polling the API server.
 *
 * <pre>{@code
 * import static io.github.kubeharness.assertions.KubeAssertions.eventually;
 * import static io.github.kubeharness.assertions.KubeAssertions.consistently;
 *
 * ConfigMap cm = eventually(client.configMaps().withName("demo")).exists();
 * eventually(client.resources(Widget.class).withName("w")).hasCondition("Ready", "True");
 * consistently(client.configMaps().withName("x")).during(Duration.ofSeconds(2)).doesNotExist();
 * }</pre>
 *
 * <p>Static methods take a fabric8 {@link Resource} (its client and namespace decide where to
 * look). An instance, bound to a client and a default timeout, is what a test framework injects:
 * {@code assertions.eventually(ConfigMap.class, "demo").exists()}.
 *
 * <p>The default timeout of {@code eventually} is 30 s; set {@code
 * kubeharness.eventually.timeout.seconds} (system property) or {@code
 * KUBE_HARNESS_EVENTUALLY_TIMEOUT_SECONDS} (environment variable) to change it, e.g. for slow CI
 * machines, and {@link EventuallyAssert#within(Duration)} for one assertion.
 */
public final class KubeAssertions {

  /**
   * Setting for the default {@code eventually} timeout in seconds (decimals allowed).
   *
   * @deprecated a second name of {@link Settings#EVENTUALLY_TIMEOUT_SECONDS}; use that one
   */
  @Deprecated(since = "0.2.0", forRemoval = true)
  public static final String TIMEOUT_SECONDS = Settings.EVENTUALLY_TIMEOUT_SECONDS;

  private final KubernetesClient client;
  private final Duration defaultTimeout;

  /**
   * Assertions on objects read through {@code namespacedClient} (its namespace is where {@link
   * #eventually(Class, String)} looks), waiting at most {@code defaultTimeout} unless told
   * otherwise.
   */
  public KubeAssertions(KubernetesClient namespacedClient, Duration defaultTimeout) {
    this.client = Objects.requireNonNull(namespacedClient, "namespacedClient");
    this.defaultTimeout = Objects.requireNonNull(defaultTimeout, "defaultTimeout");
  }

  /**
   * Assertions on objects read through {@code namespacedClient}, with {@link #defaultTimeout()}.
   */
  public KubeAssertions(KubernetesClient namespacedClient) {
    this(namespacedClient, defaultTimeout());
  }

  /** An assertion that the object behind {@code resource} reaches a state in time. */
  public static <T extends HasMetadata> EventuallyAssert<T> eventually(Resource<T> resource) {
    return new EventuallyAssert<>(resource, defaultTimeout());
  }

  /** An assertion that the object behind {@code resource} keeps a state for a while. */
  public static <T extends HasMetadata> ConsistentlyAssert<T> consistently(Resource<T> resource) {
    return new ConsistentlyAssert<>(resource, ConsistentlyAssert.DEFAULT_DURATION);
  }

  /** An AssertJ assertion on an object already in hand (conditions, owner references). */
  public static <T extends HasMetadata> ResourceAssert<T> assertThatResource(T actual) {
    return new ResourceAssert<>(actual);
  }

  /**
   * The default {@code eventually} timeout: {@code kubeharness.eventually.timeout.seconds} / {@code
   * KUBE_HARNESS_EVENTUALLY_TIMEOUT_SECONDS} when set, else the setting's default, 30 s ({@link
   * HarnessSettings#EVENTUALLY_TIMEOUT}).
   *
   * @throws KubeHarnessException when the setting is not a positive number of seconds
   */
  public static Duration defaultTimeout() {
    return HarnessSettings.EVENTUALLY_TIMEOUT.resolve();
  }

  /** An assertion that the object {@code name} of {@code type} reaches a state in time. */
  public <T extends HasMetadata> EventuallyAssert<T> eventually(Class<T> type, String name) {
    return new EventuallyAssert<>(client.resources(type).withName(name), defaultTimeout);
  }

  /** An assertion that the object {@code name} of {@code type} keeps a state for a while. */
  public <T extends HasMetadata> ConsistentlyAssert<T> consistently(Class<T> type, String name) {
    return new ConsistentlyAssert<>(
        client.resources(type).withName(name), ConsistentlyAssert.DEFAULT_DURATION);
  }
}
