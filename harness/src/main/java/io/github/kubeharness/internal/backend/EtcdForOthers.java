package io.github.kubeharness.internal.backend;

/**
 * A control plane's etcd as the clusters beside it get it ({@code @ControllerTest(clusters)}):
 * launched, then started ({@link LaunchThenStart}). They launch their apiservers on it while this
 * one's apiserver still boots, so a class's clusters share one boot's wall time. Renewed when the
 * control plane starts again after a failed start or a stop; ended when it stops.
 */
final class EtcdForOthers {

  private volatile LaunchThenStart<SharedEtcd> current = new LaunchThenStart<>();

  /** A start begins: one after a failed start or a stop is handed over anew. */
  void starting() {
    if (current.hasFailed()) {
      current = new LaunchThenStart<>();
    }
  }

  void launched(SharedEtcd etcd) {
    current.launched(etcd);
  }

  void started(SharedEtcd etcd) {
    current.started(etcd);
  }

  void failed(RuntimeException why) {
    current.failed(why);
  }

  /** The control plane stopped: a cluster beside it starting later is refused. */
  void ended() {
    current =
        LaunchThenStart.ended(
            new IllegalStateException(
                "the control plane it was made beside has stopped: start that control plane"
                    + " first"));
  }

  SharedEtcd awaitLaunched(long deadline, String what) {
    return current.awaitLaunched(deadline, what);
  }

  SharedEtcd awaitStarted(long deadline, String what) {
    return current.awaitStarted(deadline, what);
  }
}
