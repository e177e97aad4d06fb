package {{package}};

import io.javaoperatorsdk.operator.Operator;
import java.time.Duration;

/**
 * The operator's main class: connects to the cluster of the current kubeconfig (or, deployed, the
 * in-cluster ServiceAccount), runs every reconciler and stops them gracefully on SIGTERM.
 */
public final class OperatorMain {

  private OperatorMain() {}

  /** Starts the operator; it runs until the JVM is stopped. */
  public static void main(String[] args) {
    Operator operator = new Operator();
    // kube-harness create api registers each kind's reconciler above this line.
    operator.installShutdownHook(Duration.ofSeconds(10));
    operator.start();
  }
}
