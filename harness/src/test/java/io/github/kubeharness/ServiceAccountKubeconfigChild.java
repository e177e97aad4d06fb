package io.github.kubeharness;

import io.github.kubeharness.integration.ClusterRequest;
import io.github.kubeharness.integration.PreparedCluster;
import java.util.List;

/**
 * Main class for {@link KillNineIT}: prepares a cluster for an application that acts as a
 * ServiceAccount, as the Spring and Quarkus integrations do, writes the application's kubeconfig (a
 * token) to its file, prints the file's path, then waits to be killed.
 */
public final class ServiceAccountKubeconfigChild {

  public static void main(String[] args) throws Exception {
    PreparedCluster cluster =
        PreparedCluster.prepare(
            new ClusterRequest(
                "local",
                "minimal",
                "",
                List.of(),
                List.of(),
                List.of("classpath:integration/application-service-account.yaml"),
                "app-system/app"),
            "ServiceAccountKubeconfigChild");
    System.out.println("READY file=" + cluster.applicationKubeconfigFile());
    System.out.flush();
    Thread.sleep(Long.MAX_VALUE);
  }
}
