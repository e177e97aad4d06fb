package io.github.kubeharness.internal.junit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ServiceAccountBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.github.kubeharness.internal.client.Clients;
import io.github.kubeharness.internal.controlplane.Identities;
import io.github.kubeharness.internal.manifest.ManifestFiles;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.extension.ExtensionConfigurationException;

/**
 * Runs controllers as a ServiceAccount bound by the operator's own RBAC manifests instead of as
 * cluster admin, so a verb missing from {@code config/rbac} fails the test as it would fail in a
 * cluster.
 *
 * <p>Roles and ClusterRoles are applied as written (Roles into the test namespace). Bindings keep
 * their subjects' names ({@link RbacManifests} checked they name the controllers' ServiceAccount);
 * only the ServiceAccount subjects' namespace becomes the test's namespace. ClusterRoleBindings get
 * the namespace appended to their name so concurrent tests do not overwrite each other's, and are
 * deleted again on close. The ServiceAccount is created in the test namespace.
 */
final class ServiceAccountIdentity implements AutoCloseable {

  private static final Set<String> SUPPORTED =
      Set.of("Role", "ClusterRole", "RoleBinding", "ClusterRoleBinding", "ServiceAccount");

  private final KubernetesClient admin;
  private final KubernetesClient client;
  private final List<GenericKubernetesResource> clusterScoped;

  private ServiceAccountIdentity(
      KubernetesClient admin,
      KubernetesClient client,
      List<GenericKubernetesResource> clusterScoped) {
    this.admin = admin;
    this.client = client;
    this.clusterScoped = clusterScoped;
  }

  /**
   * Creates the ServiceAccount, applies the RBAC manifests and returns a client acting as it,
   * connecting as {@code route} directs (through the fault proxy).
   */
  static ServiceAccountIdentity create(
      KubernetesClient admin,
      String namespace,
      RbacManifests manifests,
      UnaryOperator<Config> route) {
    String serviceAccount = manifests.serviceAccount();
    admin
        .serviceAccounts()
        .inNamespace(namespace)
        .resource(
            new ServiceAccountBuilder()
                .withNewMetadata()
                .withName(serviceAccount)
                .endMetadata()
                .build())
        .create();
    List<GenericKubernetesResource> clusterScoped = new ArrayList<>();
    for (ManifestFiles.Document document : manifests.documents()) {
      String kind = document.kind();
      if (!SUPPORTED.contains(kind)) {
        if (document.fromDirectory()) {
          continue;
        }
        throw new ExtensionConfigurationException(
            document.source()
                + " holds a "
                + kind
                + "; rbac takes Role, ClusterRole, RoleBinding, ClusterRoleBinding and"
                + " ServiceAccount manifests.");
      }
      if (kind.equals("ServiceAccount")) {
        continue;
      }
      ObjectNode node = document.node().deepCopy();
      ObjectNode metadata = (ObjectNode) node.with("metadata");
      if (kind.startsWith("Cluster")) {
        metadata.remove("namespace");
      } else {
        metadata.put("namespace", namespace);
      }
      if (kind.equals("ClusterRoleBinding")) {
        metadata.put("name", metadata.path("name").asText() + "-" + namespace);
      }
      if (kind.endsWith("Binding")) {
        moveSubjects(node, namespace);
      }
      GenericKubernetesResource resource =
          Serialization.jsonMapper().convertValue(node, GenericKubernetesResource.class);
      if (kind.startsWith("Cluster")) {
        admin.resource(resource).forceConflicts().serverSideApply();
      } else {
        admin.resource(resource).inNamespace(namespace).forceConflicts().serverSideApply();
      }
      if (kind.equals("ClusterRoleBinding")) {
        clusterScoped.add(resource);
      }
    }
    String token = Identities.serviceAccountToken(admin, namespace, serviceAccount);
    Config base = admin.getConfiguration();
    Config config =
        new ConfigBuilder(Config.empty())
            .withMasterUrl(base.getMasterUrl())
            .withCaCertData(base.getCaCertData())
            .withCaCertFile(base.getCaCertFile())
            .withTrustCerts(base.isTrustCerts())
            .withOauthToken(token)
            .withNamespace(namespace)
            .build();
    return new ServiceAccountIdentity(admin, Clients.create(route.apply(config)), clusterScoped);
  }

  private static void moveSubjects(ObjectNode binding, String namespace) {
    JsonNode subjects = binding.path("subjects");
    if (!(subjects instanceof ArrayNode array)) {
      return;
    }
    for (JsonNode subject : array) {
      if (subject instanceof ObjectNode s && "ServiceAccount".equals(s.path("kind").asText())) {
        s.put("namespace", namespace);
      }
    }
  }

  /** A client acting as the ServiceAccount, namespaced to the test namespace. */
  KubernetesClient client() {
    return client;
  }

  @Override
  public void close() {
    try {
      client.close();
    } finally {
      for (GenericKubernetesResource binding : clusterScoped) {
        admin.resource(binding).delete();
      }
    }
  }
}
