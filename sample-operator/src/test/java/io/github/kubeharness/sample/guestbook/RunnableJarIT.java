package io.github.kubeharness.sample.guestbook;

import static io.github.kubeharness.assertions.KubeAssertions.eventually;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.github.kubeharness.ControlPlane;
import io.github.kubeharness.junit.ControllerTest;
import io.github.kubeharness.junit.TestNamespace;
import io.github.kubeharness.sample.guestbook.customresource.Guestbook;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarFile;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The shipped artifact, {@code target/guestbook-operator.jar}, as {@code make run} starts it: a
 * separate JVM that finds the cluster through {@code KUBECONFIG}, reconciles, and stops gracefully
 * on SIGTERM. Runs after {@code package}, which builds the jar.
 */
@ControllerTest(crdClasses = Guestbook.class, profile = "standard")
class RunnableJarIT {

  private static final Path JAR =
      Path.of(System.getProperty("guestbook.operator.jar", "target/guestbook-operator.jar"));
  private static final Pattern PROBES = Pattern.compile("probes on /127\\.0\\.0\\.1:(\\d+)");

  KubernetesClient client;
  @TestNamespace String namespace;
  ControlPlane controlPlane;

  @Test
  void runsFromTheJarAndStopsGracefullyOnSigterm() throws Exception {
    ProcessBuilder builder =
        new ProcessBuilder(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-jar",
                JAR.toString(),
                "--health-probe-bind-address=127.0.0.1:0",
                "--namespaces=" + namespace)
            .redirectErrorStream(true);
    builder.environment().put("KUBECONFIG", controlPlane.kubeconfigFile().toString());
    builder.environment().remove("POD_NAMESPACE");
    Process operator = builder.start();
    Thread killOnExit = new Thread(operator::destroyForcibly);
    Runtime.getRuntime().addShutdownHook(killOnExit);
    StringBuffer output = new StringBuffer();
    Thread reader = new Thread(() -> copy(operator, output), "operator-output");
    reader.setDaemon(true);
    reader.start();
    try {
      await("the operator's start-up log line")
          .atMost(Duration.ofSeconds(60))
          .until(
              () ->
                  output.toString().contains("Guestbook operator started") || !operator.isAlive());
      assertThat(operator.isAlive()).as("operator exited early:%n%s", output).isTrue();
      Matcher port = PROBES.matcher(output);
      assertThat(port.find()).as("probe address in the log:%n%s", output).isTrue();
      var probes = new InetSocketAddress("127.0.0.1", Integer.parseInt(port.group(1)));
      assertThat(Probes.get(probes, "/readyz")).isEqualTo("200 ok");

      client.resource(Guestbook.named("from-the-jar")).create();
      eventually(client.apps().deployments().withName("from-the-jar")).exists();

      // SIGTERM, as the kubelet sends it. (Process.destroy() would also close our end of the
      // output pipe, and the shutdown's log lines with it.)
      operator.toHandle().destroy();
      assertThat(operator.waitFor(30, TimeUnit.SECONDS)).as("exited after SIGTERM").isTrue();
      reader.join(5_000);
      assertThat(output.toString())
          .contains("Guestbook operator stopping", "Guestbook operator stopped")
          .doesNotContain("Exception");
    } finally {
      operator.destroyForcibly();
      Runtime.getRuntime().removeShutdownHook(killOnExit);
    }
  }

  @Test
  void theJarHasAMainClassAndNoTestCode() throws IOException {
    try (JarFile jar = new JarFile(JAR.toFile())) {
      assertThat(jar.getManifest().getMainAttributes().getValue("Main-Class"))
          .isEqualTo(GuestbookOperator.class.getName());
      List<String> testCode =
          jar.stream()
              .map(e -> e.getName())
              .filter(n -> !n.endsWith("/"))
              .filter(
                  n ->
                      (n.startsWith("io/github/kubeharness/")
                              && !n.startsWith("io/github/kubeharness/sample/"))
                          || n.startsWith("org/junit/")
                          || n.startsWith("org/assertj/")
                          || n.startsWith("org/awaitility/"))
              .limit(5)
              .toList();
      assertThat(testCode).as("harness or test classes in %s", JAR).isEmpty();
    }
  }

  private static void copy(Process process, StringBuffer output) {
    try (BufferedReader in =
        new BufferedReader(
            new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
      for (String line = in.readLine(); line != null; line = in.readLine()) {
        output.append(line).append('\n');
      }
    } catch (IOException e) {
      output.append("[output closed: ").append(e.getMessage()).append("]\n");
    }
  }
}
