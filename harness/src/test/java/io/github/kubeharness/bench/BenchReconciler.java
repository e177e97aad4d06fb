package io.github.kubeharness.bench;

import io.github.kubeharness.junit.fixtures.Widget;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.ControllerConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.Reconciler;
import io.javaoperatorsdk.operator.api.reconciler.UpdateControl;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/** Records when each widget is first reconciled: the end point of event-to-reconcile latency. */
@ControllerConfiguration(name = "bench")
public class BenchReconciler implements Reconciler<Widget> {

  static final Map<String, Long> FIRST_RECONCILE_NANOS = new ConcurrentHashMap<>();

  @Override
  public UpdateControl<Widget> reconcile(Widget widget, Context<Widget> context) {
    FIRST_RECONCILE_NANOS.putIfAbsent(widget.getMetadata().getName(), System.nanoTime());
    return UpdateControl.noUpdate();
  }
}
