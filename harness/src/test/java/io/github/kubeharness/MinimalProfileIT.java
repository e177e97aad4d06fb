package io.github.kubeharness;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.ServiceAccountBuilder;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.authentication.TokenRequestBuilder;
import io.fabric8.kubernetes.api.model.rbac.RoleBindingBuilder;
import io.fabric8.kubernetes.api.model.rbac.RoleBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.github.kubeharness.launch.ControlPlanes;
import io.github.kubeharness.simulation.Simulation;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The minimal profile (etcd + kube-apiserver) against the real binaries. */
@BackendSensitive
class MinimalProfileIT {

  static ControlPlane controlPlane;
  static KubernetesClient admin;

  // snippet:start (docs/control-plane.md)
  @BeforeAll
  static void start() {
    controlPlane =
        ControlPlanes.create(ControlPlaneOptions.builder().withProfile(Profile.MINIMAL).build());
    controlPlane.start();
    admin = controlPlane.newClient();
  }

  // end-snippet

  @AfterAll
  static void stop() {
    admin.close();
    Map<String, Long> pids = ComponentProcesses.of(controlPlane);
    Path run = controlPlane.logDirectory().orElseThrow();
    controlPlane.stop();
    assertThat(run).doesNotExist();
    assertThatThrownBy(controlPlane::apiServerUrl)
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("call start() first");
    if (controlPlane.backend() != Backend.LOCAL) {
      return; // the container backend's own test checks its containers are gone
    }
    assertThat(pids)
        .containsOnlyKeys("etcd", "kube-apiserver")
        .allSatisfy((name, pid) -> assertThat(ProcessHandle.of(pid)).isEmpty());
  }

  @Test
  void simulationSaysWhichProfileItNeeds() {
    Simulation simulation = new Simulation(controlPlane, admin);

    assertThatThrownBy(() -> simulation.addNode("n"))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("runs the minimal profile")
        .hasMessageContaining("@ControllerTest(profile = \"simulated\")");
    assertThatThrownBy(() -> simulation.storage().failProvisioning("standard", "full"))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("runs the minimal profile")
        .hasMessageContaining("docs/storage.md");
  }

  @Test
  void versionEndpointReportsTheStampedVersion() {
    assertThat(admin.getKubernetesVersion().getGitVersion()).isEqualTo("v" + Versions.KUBERNETES);
  }

  @Test
  void defaultNamespaceExistsWhenStartReturns() {
    assertThat(admin.namespaces().withName("default").get()).isNotNull();
  }

  @Test
  void startIsIdempotentAndKubeconfigFileWorks() throws Exception {
    controlPlane.start();
    assertThat(Files.readString(controlPlane.kubeconfigFile()))
        .isEqualTo(controlPlane.kubeconfig());
    Config fromFile = Config.fromKubeconfig(Files.readString(controlPlane.kubeconfigFile()));
    try (KubernetesClient client = new KubernetesClientBuilder().withConfig(fromFile).build()) {
      assertThat(client.namespaces().list().getItems()).isNotEmpty();
    }
  }

  @Test
  void customResourceDefinitionBecomesEstablishedAndServesResources() {
    // Created and awaited by hand here, as a user without the extension would.
    CustomResourceDefinition crd = TestCrds.widgets("test.kubeharness.io");
    admin.apiextensions().v1().customResourceDefinitions().resource(crd).create();
    admin
        .apiextensions()
        .v1()
        .customResourceDefinitions()
        .withName(crd.getMetadata().getName())
        .waitUntilCondition(
            c ->
                // A CRD read right after creation can carry a status without conditions yet.
                c != null
                    && c.getStatus() != null
                    && c.getStatus().getConditions() != null
                    && c.getStatus().getConditions().stream()
                        .anyMatch(
                            cond ->
                                cond.getType().equals("Established")
                                    && cond.getStatus().equals("True")),
            30,
            TimeUnit.SECONDS);

    ResourceDefinitionContext widgets = TestCrds.widgetResource("test.kubeharness.io");
    GenericKubernetesResource widget =
        new GenericKubernetesResourceBuilder()
            .withApiVersion("test.kubeharness.io/v1")
            .withKind("Widget")
            .withNewMetadata()
            .withName("w1")
            .withNamespace("default")
            .endMetadata()
            .withAdditionalProperties(Map.of("spec", Map.of("size", 3)))
            .build();
    admin.genericKubernetesResources(widgets).inNamespace("default").resource(widget).create();

    GenericKubernetesResource read =
        admin.genericKubernetesResources(widgets).inNamespace("default").withName("w1").get();
    assertThat(read.getAdditionalProperties()).containsEntry("spec", Map.of("size", 3));
  }

  @Test
  void addedUserIsDeniedByRbacUntilBound() {
    admin
        .namespaces()
        .resource(
            new NamespaceBuilder().withNewMetadata().withName("rbac-test").endMetadata().build())
        .create();
    // snippet:add-user (docs/control-plane.md)
    KubeUser alice = controlPlane.addUser("alice", List.of("testers"));
    try (KubernetesClient asAlice = alice.newClient()) {
      assertThatThrownBy(() -> asAlice.configMaps().inNamespace("rbac-test").list())
          .isInstanceOf(KubernetesClientException.class)
          .satisfies(e -> assertThat(((KubernetesClientException) e).getCode()).isEqualTo(403))
          .hasMessageContaining("User \"alice\" cannot list resource \"configmaps\"");
      // end-snippet

      admin
          .rbac()
          .roles()
          .inNamespace("rbac-test")
          .resource(
              new RoleBuilder()
                  .withNewMetadata()
                  .withName("configmap-reader")
                  .endMetadata()
                  .addNewRule()
                  .withApiGroups("")
                  .withResources("configmaps")
                  .withVerbs("get", "list")
                  .endRule()
                  .build())
          .create();
      admin
          .rbac()
          .roleBindings()
          .inNamespace("rbac-test")
          .resource(
              new RoleBindingBuilder()
                  .withNewMetadata()
                  .withName("testers-read")
                  .endMetadata()
                  .withNewRoleRef("rbac.authorization.k8s.io", "Role", "configmap-reader")
                  .addNewSubject()
                  .withKind("Group")
                  .withName("testers")
                  .withApiGroup("rbac.authorization.k8s.io")
                  .endSubject()
                  .build())
          .create();
      admin
          .configMaps()
          .inNamespace("rbac-test")
          .resource(new ConfigMapBuilder().withNewMetadata().withName("c").endMetadata().build())
          .create();

      // RBAC changes reach the authorizer through an informer, so allow a moment.
      org.awaitility.Awaitility.await()
          .atMost(java.time.Duration.ofSeconds(10))
          .ignoreExceptions()
          .untilAsserted(
              () ->
                  assertThat(asAlice.configMaps().inNamespace("rbac-test").list().getItems())
                      .extracting(cm -> cm.getMetadata().getName())
                      .containsExactly("c"));
      assertThatThrownBy(
              () ->
                  asAlice
                      .configMaps()
                      .inNamespace("rbac-test")
                      .resource(
                          new ConfigMapBuilder()
                              .withNewMetadata()
                              .withName("d")
                              .endMetadata()
                              .build())
                      .create())
          .hasMessageContaining("cannot create resource \"configmaps\"");
    }
  }

  @Test
  void tokenRequestIssuesServiceAccountTokensTheApiServerAccepts() {
    admin
        .serviceAccounts()
        .inNamespace("default")
        .resource(
            new ServiceAccountBuilder().withNewMetadata().withName("robot").endMetadata().build())
        .create();
    String token =
        admin
            .serviceAccounts()
            .inNamespace("default")
            .withName("robot")
            .tokenRequest(
                new TokenRequestBuilder()
                    .withNewSpec()
                    .withExpirationSeconds(600L)
                    .endSpec()
                    .build())
            .getStatus()
            .getToken();

    Config asRobot =
        new ConfigBuilder(Config.empty())
            .withMasterUrl(controlPlane.apiServerUrl())
            .withCaCertData(controlPlane.clientConfig().getCaCertData())
            .withOauthToken(token)
            .build();
    try (KubernetesClient robot = new KubernetesClientBuilder().withConfig(asRobot).build()) {
      // An authenticated identity without grants: 403 (not 401) proves the token was accepted.
      assertThatThrownBy(() -> robot.pods().inNamespace("default").list())
          .hasMessageContaining("system:serviceaccount:default:robot");
    }
  }
}
