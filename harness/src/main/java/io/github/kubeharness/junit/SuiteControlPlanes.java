package io.github.kubeharness.junit;

import io.github.kubeharness.ControlPlaneOptions;
import io.github.kubeharness.internal.junit.ExtensionConfig;
import io.github.kubeharness.internal.junit.SuitePlan;
import io.github.kubeharness.internal.shared.ControlPlaneKey;
import io.github.kubeharness.internal.shared.RunningControlPlanes;
import java.util.AbstractMap.SimpleEntry;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.extension.ExtensionConfigurationException;
import org.junit.platform.commons.support.AnnotationSupport;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.engine.support.descriptor.ClassSource;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.TestPlan;

/**
 * The JUnit Platform listener that keeps a run's shared control planes to what its remaining test
 * classes need: it reads the test plan before the first class starts, works out which control plane
 * each {@code @ControllerTest} class will use ({@link SuitePlan}), begins starting the first one in
 * the background at once, and lets go of each as soon as no class still to run uses it. The harness
 * jar registers it ({@code META-INF/services}); nobody names it. Turned off with JUnit's own {@code
 * junit.platform.execution.listeners.deactivate} (then every shared control plane stops at the
 * run's end, as without a plan). It never fails a run: what it cannot work out, it leaves to the
 * end of the run.
 */
public final class SuiteControlPlanes implements TestExecutionListener {

  // Set before the plan runs; read by the threads of a parallel run.
  private volatile TestPlan testPlan;
  private volatile SuitePlan plan;

  /** Made by the JUnit Platform's launcher (service loader). */
  public SuiteControlPlanes() {}

  @Override
  public void testPlanExecutionStarted(TestPlan testPlan) {
    this.testPlan = testPlan;
    try {
      Map<String, Map.Entry<String, Set<ControlPlaneKey>>> planned = new LinkedHashMap<>();
      List<ExtensionConfig> inOrder = new ArrayList<>();
      for (TestIdentifier root : testPlan.getRoots()) {
        collect(root, planned, inOrder);
      }
      if (inOrder.isEmpty()) {
        return; // no @ControllerTest class in this run: nothing to plan
      }
      plan = SuitePlan.begin(planned);
      SuitePlan.firstStart(inOrder.get(0)).ifPresent(this::startEarly);
    } catch (RuntimeException | LinkageError e) {
      plan = null; // unplanned: the run's control planes stop at its end
    }
  }

  /** Each class container of the plan, in the order JUnit runs them, with what it needs. */
  private void collect(
      TestIdentifier id,
      Map<String, Map.Entry<String, Set<ControlPlaneKey>>> planned,
      List<ExtensionConfig> inOrder) {
    if (id.getSource().orElse(null) instanceof ClassSource source) {
      planned.put(
          id.getUniqueId(), new SimpleEntry<>(source.getClassName(), needs(source, inOrder)));
    }
    for (TestIdentifier child : testPlan.getChildren(id)) {
      collect(child, planned, inOrder);
    }
  }

  /** The control planes the class may use; null when that cannot be told. */
  private static Set<ControlPlaneKey> needs(ClassSource source, List<ExtensionConfig> inOrder) {
    try {
      Class<?> testClass = source.getJavaClass();
      if (!AnnotationSupport.isAnnotated(testClass, ControllerTest.class)) {
        return Set.of();
      }
      ExtensionConfig config = ControllerTestExtension.read(testClass);
      inOrder.add(config);
      return SuitePlan.keysOf(config);
    } catch (ExtensionConfigurationException e) {
      return Set.of(); // it fails before it starts anything
    } catch (RuntimeException | LinkageError e) {
      return null;
    }
  }

  /**
   * Begins the first class's start now, while JUnit and the JVM get ready for it: its own start
   * then waits for this one (the registry starts each control plane once). The run holds it like
   * the classes' own holds, so it stops when no class needs it, or at the run's end.
   */
  private void startEarly(ControlPlaneOptions options) {
    RunningControlPlanes.Lease lease = RunningControlPlanes.lease(options);
    plan.holdEarly(ControlPlaneKey.of(options), lease);
    Thread start =
        new Thread(
            () -> {
              try {
                lease.started();
              } catch (RuntimeException e) {
                // The registry keeps the failure: the first class that asks gets it, named.
              }
            },
            "kube-harness-early-start");
    start.setDaemon(true);
    start.start();
  }

  @Override
  public void executionSkipped(TestIdentifier id, String reason) {
    List<String> ids = new ArrayList<>(List.of(id.getUniqueId()));
    testPlan.getDescendants(id).forEach(d -> ids.add(d.getUniqueId()));
    finished(ids);
  }

  @Override
  public void executionFinished(TestIdentifier id, TestExecutionResult result) {
    if (id.getSource().orElse(null) instanceof ClassSource) {
      finished(List.of(id.getUniqueId()));
    }
  }

  private void finished(List<String> ids) {
    if (plan == null) {
      return;
    }
    try {
      plan.finished(ids);
    } catch (RuntimeException e) {
      System.err.println(
          "[kube-harness] stopping a control plane no test class still needs failed: " + e);
    }
  }

  @Override
  public void testPlanExecutionFinished(TestPlan testPlan) {
    if (plan != null) {
      try {
        plan.end();
      } catch (RuntimeException e) {
        System.err.println("[kube-harness] letting go of the early start failed: " + e);
      } finally {
        plan = null;
      }
    }
  }
}
