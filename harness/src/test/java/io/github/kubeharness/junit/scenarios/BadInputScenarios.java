package io.github.kubeharness.junit.scenarios;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.github.kubeharness.junit.ControllerTest;
import io.github.kubeharness.junit.fixtures.Widget;
import io.github.kubeharness.junit.fixtures.WidgetReconciler;
import io.javaoperatorsdk.operator.Operator;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.Reconciler;
import io.javaoperatorsdk.operator.api.reconciler.UpdateControl;
import org.junit.jupiter.api.Test;

/** Misconfigured test classes, each of which must fail with a message that names the fix. */
public final class BadInputScenarios {

  private BadInputScenarios() {}

  @ControllerTest(crds = "src/test/resources/no/such/dir")
  public static class MissingCrdPath {
    @Test
    void test() {}
  }

  @ControllerTest(crds = "src/test/resources/bad-crds/not-yaml.yaml")
  public static class InvalidYaml {
    @Test
    void test() {}
  }

  @ControllerTest(crds = "src/test/resources/bad-crds/not-a-crd.yaml")
  public static class NotACrd {
    @Test
    void test() {}
  }

  @ControllerTest(
      crds = {"src/test/resources/crds", "src/test/resources/bad-crds/name-clash.yaml"},
      profile = "standard")
  public static class NeverEstablished {
    @Test
    void test() {}
  }

  @ControllerTest(crdClasses = NoGeneratedCrd.class)
  public static class CrdClassWithoutGeneratedYaml {
    @Test
    void test() {}
  }

  @ControllerTest(crds = "src/test/resources/crds", reconcilers = ExplodingReconciler.class)
  public static class ReconcilerFailsToStart {
    @Test
    void test() {}
  }

  /** Two tests, one failure: the class fails once, before a cluster starts. */
  @ControllerTest(
      crds = "src/test/resources/crds",
      reconcilers = NoUsableConstructorReconciler.class)
  public static class NoUsableConstructor {
    @Test
    void first() {}

    @Test
    void second() {}
  }

  @ControllerTest(
      crds = "src/test/resources/crds",
      reconcilers = WidgetReconciler.class,
      rbac = "src/test/resources/rbac/widget-controller-misspelt-binding")
  public static class MisspeltBindingSubject {
    @Test
    void test() {}
  }

  @ControllerTest(
      crds = "src/test/resources/crds",
      reconcilers = WidgetReconciler.class,
      rbac = "src/test/resources/rbac/widget-controller",
      serviceAccount = "controller-manager")
  public static class ServiceAccountNoBindingNames {
    @Test
    void test() {}
  }

  @ControllerTest(rbac = "src/test/resources/rbac/widget-controller")
  public static class RbacWithoutControllers {
    @Test
    void test() {}
  }

  @ControllerTest(profile = "maximal")
  public static class UnknownProfile {
    @Test
    void test() {}
  }

  @ControllerTest(crds = "src/test/resources/crds")
  public static class OperatorWithoutReconcilers {
    @Test
    void test(Operator operator) {}
  }

  /** A resource class nobody generated a CRD for. */
  @io.fabric8.kubernetes.model.annotation.Group("test.kubeharness.io")
  @io.fabric8.kubernetes.model.annotation.Version("v1")
  public static class NoGeneratedCrd
      extends io.fabric8.kubernetes.client.CustomResource<Void, Void> {}

  /** A reconciler the harness cannot construct: its only constructor wants a String. */
  public static class NoUsableConstructorReconciler implements Reconciler<Widget> {
    public NoUsableConstructorReconciler(String config) {}

    @Override
    public UpdateControl<Widget> reconcile(Widget resource, Context<Widget> context) {
      return UpdateControl.noUpdate();
    }
  }

  /** A reconciler whose constructor fails, as one with a missing configuration would. */
  public static class ExplodingReconciler implements Reconciler<Widget> {
    public ExplodingReconciler(KubernetesClient client) {
      throw new IllegalStateException("no config for the exploding reconciler");
    }

    @Override
    public UpdateControl<Widget> reconcile(Widget resource, Context<Widget> context) {
      return UpdateControl.noUpdate();
    }
  }
}
