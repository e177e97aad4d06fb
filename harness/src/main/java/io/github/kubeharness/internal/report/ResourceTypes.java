package io.github.kubeharness.internal.report;

import io.fabric8.kubernetes.api.model.APIGroup;
import io.fabric8.kubernetes.api.model.APIGroupList;
import io.fabric8.kubernetes.api.model.APIResource;
import io.fabric8.kubernetes.api.model.APIResourceList;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The namespaced resource types a server can list, found once through the discovery API: the core
 * group and every group at its preferred version, without subresources and without events (which
 * have their own file). Groups whose discovery fails are noted, not fatal.
 */
final class ResourceTypes {

  /** One listable, namespaced type, e.g. {@code apps/v1 Deployment (deployments)}. */
  record Type(String group, String version, String kind, String plural) {

    String apiVersion() {
      return group.isEmpty() ? version : group + "/" + version;
    }

    ResourceDefinitionContext context() {
      // Built from discovery so listing needs no second lookup of the plural.
      return new ResourceDefinitionContext.Builder()
          .withGroup(group)
          .withVersion(version)
          .withKind(kind)
          .withPlural(plural)
          .withNamespaced(true)
          .build();
    }
  }

  /** The types found, and one line per group version that could not be discovered. */
  record Discovered(List<Type> types, List<String> problems) {}

  private ResourceTypes() {}

  static Discovered discover(KubernetesClient admin) {
    List<String> problems = new ArrayList<>();
    List<String> groupVersions = new ArrayList<>();
    groupVersions.add("v1");
    try {
      APIGroupList groups = admin.getApiGroups();
      if (groups != null && groups.getGroups() != null) {
        for (APIGroup group : groups.getGroups()) {
          if (group.getPreferredVersion() != null) {
            groupVersions.add(group.getPreferredVersion().getGroupVersion());
          } else if (group.getVersions() != null && !group.getVersions().isEmpty()) {
            groupVersions.add(group.getVersions().get(0).getGroupVersion());
          }
        }
      }
    } catch (RuntimeException e) {
      problems.add(
          "API groups (/apis): " + ReportText.oneLine(String.valueOf(e.getMessage()), 200));
    }

    // Keyed by group and plural: an aggregated or duplicated group must not list a type twice.
    Map<String, Type> types = new LinkedHashMap<>();
    for (String groupVersion : groupVersions) {
      try {
        APIResourceList resources = admin.getApiResources(groupVersion);
        if (resources == null || resources.getResources() == null) {
          problems.add(groupVersion + ": discovery returned nothing");
          continue;
        }
        for (APIResource resource : resources.getResources()) {
          if (isListableNamespaced(resource)) {
            Type type = toType(groupVersion, resource);
            types.putIfAbsent(type.group() + "/" + type.plural(), type);
          }
        }
      } catch (RuntimeException e) {
        problems.add(groupVersion + ": " + ReportText.oneLine(String.valueOf(e.getMessage()), 200));
      }
    }
    return new Discovered(List.copyOf(types.values()), List.copyOf(problems));
  }

  private static boolean isListableNamespaced(APIResource resource) {
    return Boolean.TRUE.equals(resource.getNamespaced())
        && resource.getName() != null
        && !resource.getName().contains("/")
        && !resource.getName().equals("events")
        && resource.getVerbs() != null
        && resource.getVerbs().contains("list");
  }

  private static Type toType(String groupVersion, APIResource resource) {
    int slash = groupVersion.indexOf('/');
    String group = slash < 0 ? "" : groupVersion.substring(0, slash);
    String version = slash < 0 ? groupVersion : groupVersion.substring(slash + 1);
    // Discovery may name another group/version for a resource (rare, e.g. aggregated APIs).
    if (resource.getGroup() != null && !resource.getGroup().isEmpty()) {
      group = resource.getGroup();
    }
    if (resource.getVersion() != null && !resource.getVersion().isEmpty()) {
      version = resource.getVersion();
    }
    return new Type(group, version, resource.getKind(), resource.getName());
  }
}
