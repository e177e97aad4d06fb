package io.github.kubeharness.internal.junit;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceList;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;

/**
 * The objects of the collections the controllers watched or wrote to, read once (by the test's
 * admin client, consistently): their resourceVersions, and the children whose owner is missing
 * (orphans) or who duplicate a sibling. What counts as a duplicate is in {@link #duplicates()}.
 */
final class OwnedObjects {

  /** One object: its path, resourceVersion and metadata; {@code resource} its plural. */
  record Seen(String path, String resource, String resourceVersion, ObjectMeta metadata) {
    String describe() {
      return resource + " " + metadata.getName();
    }
  }

  private final KubernetesClient admin;
  private final Map<String, Seen> byPath = new TreeMap<>();
  private final Set<String> createdInto;

  private OwnedObjects(KubernetesClient admin, Set<String> createdInto) {
    this.admin = admin;
    this.createdInto = createdInto;
  }

  /**
   * Lists each of {@code collections} (API paths of one namespace); {@code createdInto}: those the
   * controllers created objects in, whose objects are the children judged.
   */
  static OwnedObjects read(
      KubernetesClient admin, List<String> collections, Set<String> createdInto) {
    OwnedObjects objects = new OwnedObjects(admin, createdInto);
    for (String collection : collections) {
      String json = admin.raw(collection);
      if (json == null) {
        continue; // gone (a CRD removed meanwhile): nothing of it to judge
      }
      GenericKubernetesResourceList list =
          admin.getKubernetesSerialization().unmarshal(json, GenericKubernetesResourceList.class);
      String resource = collection.substring(collection.lastIndexOf('/') + 1);
      for (GenericKubernetesResource item : list.getItems()) {
        ObjectMeta metadata = item.getMetadata();
        String path = collection + "/" + metadata.getName();
        objects.byPath.put(path, new Seen(path, resource, metadata.getResourceVersion(), metadata));
      }
    }
    return objects;
  }

  /** The objects by path. */
  Map<String, Seen> byPath() {
    return byPath;
  }

  /** The children the controllers made whose owner reference names an owner that is not there. */
  List<String> orphans() {
    List<String> orphans = new ArrayList<>();
    Map<String, Boolean> present = new LinkedHashMap<>();
    for (Seen child : children()) {
      for (OwnerReference owner : child.metadata().getOwnerReferences()) {
        boolean there =
            present.computeIfAbsent(
                owner.getUid(), uid -> ownerPresent(owner, child.metadata().getNamespace()));
        if (!there) {
          orphans.add(
              child.describe()
                  + " (owner "
                  + owner.getKind()
                  + " "
                  + owner.getName()
                  + ", uid "
                  + owner.getUid()
                  + ", is not there)");
        }
      }
    }
    return orphans;
  }

  /**
   * Children that duplicate a sibling: two or more objects the controllers created in one
   * collection, with the same owner (uid), the same non-empty {@code generateName} and the same
   * labels. A controller that means several children of one kind tells them apart by name, prefix
   * or labels; one that made the same object twice (a cache that did not show the first yet) gives
   * them all the same. Each entry names the group.
   */
  List<String> duplicates() {
    Map<String, List<Seen>> groups = new LinkedHashMap<>();
    for (Seen child : children()) {
      ObjectMeta m = child.metadata();
      if (m.getGenerateName() == null || m.getGenerateName().isEmpty()) {
        continue; // a fixed name cannot be taken twice
      }
      for (OwnerReference owner : m.getOwnerReferences()) {
        String key =
            child.path().substring(0, child.path().lastIndexOf('/'))
                + "|"
                + owner.getUid()
                + "|"
                + m.getGenerateName()
                + "|"
                + new TreeMap<>(Objects.requireNonNullElse(m.getLabels(), Map.of()));
        groups.computeIfAbsent(key, k -> new ArrayList<>()).add(child);
      }
    }
    List<String> duplicates = new ArrayList<>();
    for (List<Seen> group : groups.values()) {
      if (group.size() < 2) {
        continue;
      }
      Seen first = group.get(0);
      OwnerReference owner = first.metadata().getOwnerReferences().get(0);
      duplicates.add(
          group.size()
              + " "
              + first.resource()
              + " of generateName \""
              + first.metadata().getGenerateName()
              + "\" and the same labels owned by "
              + owner.getKind()
              + " "
              + owner.getName()
              + ": "
              + group.stream().map(s -> s.metadata().getName()).toList());
    }
    return duplicates;
  }

  /** The objects with owner references in the collections the controllers created in. */
  private List<Seen> children() {
    return byPath.values().stream()
        .filter(s -> createdInto.contains(s.path().substring(0, s.path().lastIndexOf('/'))))
        .filter(s -> !s.metadata().getOwnerReferences().isEmpty())
        .toList();
  }

  private boolean ownerPresent(OwnerReference owner, String namespace) {
    for (Seen seen : byPath.values()) {
      if (owner.getUid().equals(seen.metadata().getUid())) {
        return true;
      }
    }
    try {
      GenericKubernetesResource found =
          admin
              .genericKubernetesResources(owner.getApiVersion(), owner.getKind())
              .inNamespace(namespace)
              .withName(owner.getName())
              .get();
      return found != null && owner.getUid().equals(found.getMetadata().getUid());
    } catch (RuntimeException e) {
      // A kind the API server does not serve (any more): its owner cannot be there.
      return false;
    }
  }
}
