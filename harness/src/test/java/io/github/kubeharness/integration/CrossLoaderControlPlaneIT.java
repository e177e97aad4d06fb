package io.github.kubeharness.integration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.github.kubeharness.Backend;
import io.github.kubeharness.ControlPlane;
import io.github.kubeharness.KubeUser;
import io.github.kubeharness.Profile;
import io.github.kubeharness.junit.fixtures.Widget;
import io.github.kubeharness.launch.ControlPlanes;
import java.io.File;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A control plane started by another class loader's copy of kube-harness — as a Quarkus restart
 * sees the JVM's shared one — used through this loader's {@link ControlPlane} type.
 */
class CrossLoaderControlPlaneIT {

  private static URLClassLoader other;
  private static Object foreign;
  private static ControlPlane view;

  @BeforeAll
  static void startInAnotherClassLoader() throws Exception {
    URL[] classPath =
        Arrays.stream(System.getProperty("java.class.path").split(File.pathSeparator))
            .map(entry -> toUrl(Path.of(entry)))
            .toArray(URL[]::new);
    // Parent: the JDK only, so kube-harness and fabric8 are loaded again, as Quarkus loads them.
    other = new URLClassLoader(classPath, ClassLoader.getPlatformClassLoader());
    Class<?> options = other.loadClass(AnnotationOptions.class.getName());
    Object minimal =
        options
            .getMethod("of", String.class, String.class, String.class, String.class)
            .invoke(null, "local", "minimal", "", "CrossLoaderControlPlaneIT");
    Class<?> theirControlPlane = other.loadClass(ControlPlane.class.getName());
    assertThat(theirControlPlane).isNotEqualTo(ControlPlane.class);
    Thread.currentThread().setContextClassLoader(other);
    try {
      foreign =
          other
              .loadClass(ControlPlanes.class.getName())
              .getMethod(
                  "create",
                  other.loadClass(io.github.kubeharness.ControlPlaneOptions.class.getName()))
              .invoke(null, minimal);
      theirControlPlane.getMethod("start").invoke(foreign);
    } finally {
      Thread.currentThread()
          .setContextClassLoader(CrossLoaderControlPlaneIT.class.getClassLoader());
    }
    view = CrossLoaderControlPlane.of(foreign);
  }

  @AfterAll
  static void stop() throws Exception {
    if (view != null) {
      view.stop();
    }
    if (other != null) {
      other.close();
    }
  }

  @Test
  void answersWithThisLoadersTypes() {
    assertThat(view.isRunning()).isTrue();
    assertThat(view.backend()).isEqualTo(Backend.LOCAL);
    assertThat(view.profile()).isEqualTo(Profile.MINIMAL);
    assertThat(view.apiServerUrl()).startsWith("https://127.0.0.1:");
    assertThat(view.auditLogFile()).isPresent();

    KubeUser user = view.addUser("cross-loader-user", List.of("testers"));
    assertThat(user.name()).isEqualTo("cross-loader-user");
    assertThat(user.groups()).containsExactly("testers");
  }

  @Test
  void itsClientIsThisLoadersFabric8() {
    try (KubernetesClient client = view.newClient()) {
      assertThat(client.namespaces().withName("default").get()).isNotNull();
    }
  }

  @Test
  void installsCrdFiles() {
    view.installCrds(List.of("src/test/resources/crds"), List.of());
    try (KubernetesClient client = view.newClient()) {
      assertThat(
              client
                  .apiextensions()
                  .v1()
                  .customResourceDefinitions()
                  .withName("widgets.test.kubeharness.io")
                  .get())
          .isNotNull();
    }
  }

  @Test
  void whatCannotCrossNamesTheMethod() {
    assertThatThrownBy(() -> view.installCrds(List.of(), List.of(Widget.class)))
        .isInstanceOf(UnsupportedOperationException.class)
        .hasMessageContaining("ControlPlane.installCrds(...)")
        .hasMessageContaining("CRD files instead of classes");
    assertThatThrownBy(view::faults)
        .isInstanceOf(UnsupportedOperationException.class)
        .hasMessageContaining("ControlPlane.faults(...)")
        .hasMessageContaining("io.github.kubeharness.faults.Faults");
  }

  @Test
  void failuresKeepTheirMessage() {
    assertThatThrownBy(() -> view.apply(List.of("no/such/manifests")))
        .hasMessageContaining("no/such/manifests");
  }

  private static URL toUrl(Path entry) {
    try {
      return entry.toUri().toURL();
    } catch (java.net.MalformedURLException e) {
      throw new IllegalStateException(e);
    }
  }
}
