package io.github.kubeharness.sample.guestbook;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.github.kubeharness.junit.ControllerTest;
import io.github.kubeharness.sample.guestbook.customresource.Guestbook;
import io.github.kubeharness.sample.guestbook.customresource.GuestbookSpec;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The API server itself enforces the Guestbook schema generated from the Java classes: bad input is
 * rejected with the field named, before any operator sees it, and defaults are filled in. No
 * operator runs here; the manifests are what a user would {@code kubectl apply}.
 */
@ControllerTest(crdClasses = Guestbook.class, profile = "standard")
class GuestbookSchemaIT {

  KubernetesClient client;

  static Stream<Arguments> invalidSpecs() {
    return Stream.of(
        Arguments.of("replicas: 11", "spec.replicas", "less than or equal to 10"),
        Arguments.of("replicas: -1", "spec.replicas", "greater than or equal to 0"),
        Arguments.of("message: " + "x".repeat(257), "spec.message", "Too long"),
        Arguments.of("serviceType: LoadBalancer", "spec.serviceType", "Unsupported value"),
        Arguments.of("image: nginx latest", "spec.image", "should match"),
        Arguments.of(
            "serviceType: NodePort\n  nodePort: 80", "spec.nodePort", "greater than or equal"),
        // the CEL rule: a cross-field constraint the OpenAPI schema alone cannot express
        Arguments.of(
            "nodePort: 30080",
            "spec.nodePort",
            "Forbidden: nodePort may only be set when serviceType is NodePort"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("invalidSpecs")
  void invalidSpecIsRejectedWithTheFieldNamed(String spec, String field, String reason) {
    KubernetesClientException rejected =
        catchThrowableOfType(
            KubernetesClientException.class, () -> client.resource(guestbook(spec)).create());

    assertThat(rejected).as("the API server accepted spec {%s}", spec).isNotNull();
    assertThat(rejected.getCode()).isEqualTo(422);
    assertThat(rejected.getStatus().getMessage()).contains(field + ": ", reason);
  }

  @Test
  void everyViolationIsReportedAtOnce() {
    KubernetesClientException rejected =
        catchThrowableOfType(
            KubernetesClientException.class,
            () -> client.resource(guestbook("replicas: 11\n  serviceType: LoadBalancer")).create());

    assertThat(rejected.getStatus().getMessage()).contains("spec.replicas", "spec.serviceType");
  }

  @Test
  void nodePortIsAcceptedWithNodePortServices() {
    client.resource(guestbook("serviceType: NodePort\n  nodePort: 30080")).create();
  }

  @Test
  void defaultsAreFilledInByTheApiServer() {
    client.resource(guestbook("{}")).create();

    GuestbookSpec spec = client.resources(Guestbook.class).withName("sample").get().getSpec();
    assertThat(spec.getReplicas()).isEqualTo(1);
    assertThat(spec.getImage()).isEqualTo(GuestbookSpec.DEFAULT_IMAGE);
    assertThat(spec.getMessage()).isEqualTo(GuestbookSpec.DEFAULT_MESSAGE);
    assertThat(spec.getServiceType()).isEqualTo(GuestbookSpec.ServiceType.ClusterIP);
    assertThat(spec.getNodePort()).isNull();
  }

  @Test
  void aGuestbookWithoutSpecGetsTheDefaultsToo() {
    client
        .resource(
            """
            apiVersion: webapp.example.com/v1
            kind: Guestbook
            metadata:
              name: bare
            """)
        .create();

    assertThat(client.resources(Guestbook.class).withName("bare").get().getSpec().getReplicas())
        .isEqualTo(1);
  }

  private static String guestbook(String spec) {
    return """
        apiVersion: webapp.example.com/v1
        kind: Guestbook
        metadata:
          name: sample
        spec:
          %s
        """
        .formatted(spec);
  }
}
