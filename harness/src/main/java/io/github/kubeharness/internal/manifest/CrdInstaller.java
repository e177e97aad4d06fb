package io.github.kubeharness.internal.manifest;

import io.fabric8.kubernetes.api.model.APIResource;
import io.fabric8.kubernetes.api.model.APIResourceList;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ListOptionsBuilder;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionCondition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionVersion;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.github.kubeharness.KubeHarnessException;
import io.github.kubeharness.internal.process.Waits;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;

/**
 * Installs CRDs into a shared cluster once, and again only when their content changed (an edited
 * CRD file is re-applied by server-side apply). Returns only when every CRD is Established and
 * every served version is listed by discovery — the moment a controller's informer can list it —
 * never after a fixed sleep.
 */
public final class CrdInstaller {

  private static final Duration TIMEOUT = Duration.ofSeconds(30);

  private final KubernetesClient admin;
  // name -> content last applied; shared by all test classes using this cluster
  private final Map<String, String> applied = new ConcurrentHashMap<>();

  public CrdInstaller(KubernetesClient admin) {
    this.admin = admin;
  }

  /** Installs the CRDs named by the annotation's {@code crds} and {@code crdClasses}. */
  public synchronized int install(List<String> paths, List<Class<?>> crdClasses) {
    return install(documents(paths, crdClasses));
  }

  /** The documents of the annotation's {@code crds} and {@code crdClasses}, read, not applied. */
  public static List<ManifestFiles.Document> documents(
      List<String> paths, List<Class<?>> crdClasses) {
    List<ManifestFiles.Document> documents = new ArrayList<>(ManifestFiles.read(paths, "crds"));
    for (Class<?> type : crdClasses) {
      documents.addAll(ManifestFiles.read(List.of(generatedCrd(type)), "crdClasses"));
    }
    return documents;
  }

  /**
   * Installs the CRDs among {@code documents}; other kinds are an error unless from a directory.
   * Returns how many were new or changed.
   */
  public synchronized int install(List<ManifestFiles.Document> documents) {
    List<CustomResourceDefinition> changed = new ArrayList<>();
    for (ManifestFiles.Document document : documents) {
      if (!document.kind().equals("CustomResourceDefinition")) {
        if (document.fromDirectory()) {
          continue; // directories may hold other manifests next to CRDs
        }
        throw new KubeHarnessException(
            document.source()
                + " holds a "
                + (document.kind().isEmpty() ? "document without kind" : document.kind())
                + ", not a CustomResourceDefinition (apiextensions.k8s.io/v1). List CRD files in"
                + " crds, or a directory that contains them.");
      }
      CustomResourceDefinition crd;
      try {
        crd =
            Serialization.jsonMapper().treeToValue(document.node(), CustomResourceDefinition.class);
      } catch (Exception e) {
        throw new KubeHarnessException(
            document.source() + " is not a valid CustomResourceDefinition: " + e.getMessage(), e);
      }
      String content = document.node().toString();
      if (!content.equals(applied.get(crd.getMetadata().getName()))) {
        apply(crd, document.source());
        applied.put(crd.getMetadata().getName(), content);
        changed.add(crd);
      }
    }
    for (CustomResourceDefinition crd : changed) {
      awaitServed(crd);
    }
    return changed.size();
  }

  static String generatedCrd(Class<?> type) {
    if (!HasMetadata.class.isAssignableFrom(type)) {
      throw new KubeHarnessException(
          "crdClasses entry "
              + type.getName()
              + " is not a Kubernetes resource class (HasMetadata).");
    }
    @SuppressWarnings("unchecked")
    Class<? extends HasMetadata> resource = (Class<? extends HasMetadata>) type;
    String name = HasMetadata.getPlural(resource) + "." + HasMetadata.getGroup(resource);
    String path = "META-INF/fabric8/" + name + "-v1.yml";
    if (Thread.currentThread().getContextClassLoader().getResource(path) == null) {
      throw new KubeHarnessException(
          "No generated CRD for "
              + type.getName()
              + ": expected the classpath resource "
              + path
              + ". Add fabric8's crd-generator-maven-plugin (io.fabric8:crd-generator-maven-plugin)"
              + " to the build, or list the CRD file in crds.");
    }
    return "classpath:" + path;
  }

  private void apply(CustomResourceDefinition crd, String source) {
    crd.getMetadata().setResourceVersion(null);
    try {
      admin
          .apiextensions()
          .v1()
          .customResourceDefinitions()
          .resource(crd)
          .forceConflicts()
          .serverSideApply();
    } catch (RuntimeException e) {
      throw new KubeHarnessException(
          "The API server rejected the CRD "
              + crd.getMetadata().getName()
              + " from "
              + source
              + ": "
              + e.getMessage(),
          e);
    }
  }

  private void awaitServed(CustomResourceDefinition crd) {
    String name = crd.getMetadata().getName();
    CustomResourceDefinition[] current = new CustomResourceDefinition[1];
    Waits.poll(
        () -> {
          current[0] = admin.apiextensions().v1().customResourceDefinitions().withName(name).get();
          return current[0] != null && established(current[0]) && servedByDiscovery(current[0]);
        },
        Waits.deadline(TIMEOUT),
        () -> {},
        last ->
            new KubeHarnessException(
                "CRD "
                    + name
                    + " did not become Established and served within "
                    + TIMEOUT.toSeconds()
                    + " s. Its conditions: "
                    + conditions(current[0])
                    + ". Check the CRD's names and schema.",
                last));
    waitOutCreateDelay(current[0]);
  }

  // kube-apiserver holds every create of a custom resource for 2 s while its CRD became Established
  // less than 2 s ago (customresource_handler.go: so that in HA setups all servers have seen it).
  // Waiting that out here, once per CRD, keeps it out of the first test, whose short timeouts it
  // would otherwise eat. The condition's time has whole-second precision, hence the margin.
  private static void waitOutCreateDelay(CustomResourceDefinition crd) {
    crd.getStatus().getConditions().stream()
        .filter(c -> "Established".equals(c.getType()))
        .map(CustomResourceDefinitionCondition::getLastTransitionTime)
        .filter(Objects::nonNull)
        .findFirst()
        .ifPresent(
            time -> {
              long wait =
                  java.time.Instant.parse(time).plusMillis(2_100).toEpochMilli()
                      - System.currentTimeMillis();
              if (wait > 0 && wait <= 3_000) {
                Waits.sleep(wait);
              }
            });
  }

  private static boolean established(CustomResourceDefinition crd) {
    // A CRD read right after creation can carry a status without conditions yet.
    return crd.getStatus() != null
        && crd.getStatus().getConditions() != null
        && crd.getStatus().getConditions().stream()
            .anyMatch(c -> "Established".equals(c.getType()) && "True".equals(c.getStatus()));
  }

  private boolean servedByDiscovery(CustomResourceDefinition crd) {
    String plural = crd.getSpec().getNames().getPlural();
    for (CustomResourceDefinitionVersion version : crd.getSpec().getVersions()) {
      if (!Boolean.TRUE.equals(version.getServed())) {
        continue;
      }
      APIResourceList list;
      try {
        list = admin.getApiResources(crd.getSpec().getGroup() + "/" + version.getName());
      } catch (RuntimeException e) {
        return false;
      }
      if (list == null
          || list.getResources().stream().map(APIResource::getName).noneMatch(plural::equals)) {
        return false;
      }
      if (!watchCacheReady(crd, version.getName())) {
        return false;
      }
    }
    return true;
  }

  // Right after a CRD is Established its watch cache is still initializing: lists from the cache
  // answer 429 and a watch opened now delivers its first events only seconds later. A list with
  // resourceVersion=0 is served from that cache, so its success means informers work at once.
  private boolean watchCacheReady(CustomResourceDefinition crd, String version) {
    ResourceDefinitionContext context =
        new ResourceDefinitionContext.Builder()
            .withGroup(crd.getSpec().getGroup())
            .withVersion(version)
            .withPlural(crd.getSpec().getNames().getPlural())
            .withKind(crd.getSpec().getNames().getKind())
            .withNamespaced("Namespaced".equals(crd.getSpec().getScope()))
            .build();
    try {
      admin
          .genericKubernetesResources(context)
          .inAnyNamespace()
          .list(new ListOptionsBuilder().withResourceVersion("0").withLimit(1L).build());
      return true;
    } catch (RuntimeException e) {
      return false;
    }
  }

  private static String conditions(CustomResourceDefinition crd) {
    if (crd == null || crd.getStatus() == null || crd.getStatus().getConditions() == null) {
      return "(none reported)";
    }
    return crd.getStatus().getConditions().stream()
        .map(CrdInstaller::describe)
        .collect(Collectors.joining("; "));
  }

  private static String describe(CustomResourceDefinitionCondition c) {
    return c.getType()
        + "="
        + c.getStatus()
        + " ("
        + Objects.toString(c.getReason(), "")
        + ": "
        + Objects.toString(c.getMessage(), "")
        + ")";
  }
}
