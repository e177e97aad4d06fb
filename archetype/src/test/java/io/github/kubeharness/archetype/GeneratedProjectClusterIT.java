package io.github.kubeharness.archetype;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The archetype's project against a real control plane, the way its README has a user work: {@code
 * make install} puts its CRD into the cluster of the current kubeconfig, {@code make run} runs the
 * operator there until Ctrl-C, and a sample applied meanwhile is reconciled; {@code make uninstall}
 * takes the CRD out again. The control plane is {@code kube-harness up} (the CLI jar this build
 * makes), as a user without a cluster would start one.
 */
@Tag("generated")
class GeneratedProjectClusterIT {

  private static final String GUESTBOOK = "webapp.my.domain/v1";

  @TempDir static Path tmp;
  static GeneratedProject project;
  static Process controlPlane;
  static Map<String, String> kubeconfig;
  static KubernetesClient client;

  @BeforeAll
  static void aProjectAndAControlPlane() throws Exception {
    project = GeneratedProject.fromArchetype(tmp);
    Path file = tmp.resolve("kubeconfig");
    Path cli = Path.of("../target/kube-harness.jar").toAbsolutePath().normalize();
    controlPlane =
        project.start(
            Map.of(),
            "up.log",
            javaCommand(),
            "-jar",
            cli.toString(),
            "up",
            "--profile",
            "minimal",
            "--kubeconfig",
            file.toString());
    awaitLine("up.log", "export KUBECONFIG=", controlPlane);
    kubeconfig = Map.of("KUBECONFIG", file.toString());
    client =
        new KubernetesClientBuilder()
            .withConfig(Config.fromKubeconfig(Files.readString(file)))
            .build();
  }

  @AfterAll
  static void stopTheControlPlane() throws Exception {
    if (client != null) {
      client.close();
    }
    if (controlPlane != null) {
      Commands.interrupt(controlPlane, Duration.ofSeconds(60));
      assertThat(Commands.read(project.logs().resolve("up.log")))
          .contains("# control plane stopped");
    }
  }

  @Test
  void installThenRunReconcilesTheSampleAndCtrlCStopsTheOperator() throws Exception {
    project.run(kubeconfig, "install.log", "make", "install").succeeded();

    assertThat(client.apiextensions().v1().customResourceDefinitions().list().getItems())
        .extracting(crd -> crd.getMetadata().getName())
        .contains("guestbooks.webapp.my.domain");

    Process operator = project.start(kubeconfig, "run.log", "make", "run");
    try (InputStream sample =
        Files.newInputStream(project.dir().resolve("config/samples/webapp_v1_guestbook.yaml"))) {
      client.load(sample).inNamespace("default").create();
    }

    Deployment deployment =
        await(
            "the sample's Deployment, made by the operator that make run started",
            () ->
                client
                    .apps()
                    .deployments()
                    .inNamespace("default")
                    .withName("guestbook-sample")
                    .get(),
            operator,
            "run.log");
    assertThat(deployment.getMetadata().getOwnerReferences())
        .extracting(owner -> owner.getKind() + "/" + owner.getName())
        .containsExactly("Guestbook/guestbook-sample");
    GenericKubernetesResource reconciled =
        await(
            "the sample's status.observedGeneration, which the reconciler reports",
            () -> {
              GenericKubernetesResource guestbook =
                  client
                      .genericKubernetesResources(GUESTBOOK, "Guestbook")
                      .inNamespace("default")
                      .withName("guestbook-sample")
                      .get();
              Object status = guestbook.getAdditionalProperties().get("status");
              return status instanceof Map<?, ?> map && map.get("observedGeneration") != null
                  ? guestbook
                  : null;
            },
            operator,
            "run.log");
    assertThat(
            ((Map<?, ?>) reconciled.getAdditionalProperties().get("status"))
                .get("observedGeneration"))
        .isEqualTo(1);

    // Ctrl-C, as in a terminal: make and the operator's JVM end, none left behind
    Commands.interrupt(operator, Duration.ofSeconds(30));
    assertThat(Commands.read(project.logs().resolve("run.log"))).doesNotContain("Exception");

    project.run(kubeconfig, "uninstall.log", "make", "uninstall").succeeded();
    await(
        "the CRD gone after make uninstall",
        () ->
            client
                        .apiextensions()
                        .v1()
                        .customResourceDefinitions()
                        .withName("guestbooks.webapp.my.domain")
                        .get()
                    == null
                ? "gone"
                : null,
        controlPlane,
        "up.log");
  }

  /**
   * {@code make docker-build}: Jib puts the image into the local Docker (on the FROM-scratch JRE
   * base, nothing pulled), and the image runs the operator as its non-root user against the control
   * plane: it reconciles a Guestbook of its own.
   */
  @Test
  void dockerBuildMakesAnImageWhoseOperatorReconciles() throws Exception {
    Docker.requireEngineAndJreBase(project.logs());
    String image = "kube-harness-it/guestbook-operator:" + ProcessHandle.current().pid();
    String container = "kube-harness-it-operator-" + ProcessHandle.current().pid();
    try {
      project.run("docker-build.log", "make", "docker-build", "IMG=" + image).succeeded();
      assertThat(Docker.inspect(project.logs(), image, "{{.Config.User}}"))
          .isEqualTo("65532:65532");
      assertThat(Docker.inspect(project.logs(), image, "{{json .Config.Entrypoint}}"))
          .contains("com.example.guestbook.OperatorMain");

      project.run(kubeconfig, "install-for-image.log", "make", "install").succeeded();
      // The image's user (65532) reads the kubeconfig through the bind mount; the copy stays in
      // this test's owner-only temporary directory.
      Path readable = Files.copy(tmp.resolve("kubeconfig"), tmp.resolve("kubeconfig-for-image"));
      Files.setPosixFilePermissions(
          readable, java.nio.file.attribute.PosixFilePermissions.fromString("rw-r--r--"));
      // host network: the control plane listens on 127.0.0.1 only
      Docker.run(
              project.logs(),
              "docker-run.log",
              "docker",
              "run",
              "-d",
              "--name",
              container,
              "--network",
              "host",
              "-v",
              readable + ":/etc/kubeconfig:ro",
              "-e",
              "KUBECONFIG=/etc/kubeconfig",
              image)
          .succeeded();
      try (InputStream sample =
          Files.newInputStream(project.dir().resolve("config/samples/webapp_v1_guestbook.yaml"))) {
        GenericKubernetesResource guestbook =
            (GenericKubernetesResource) client.load(sample).items().get(0);
        guestbook.getMetadata().setName("from-image");
        client.resource(guestbook).inNamespace("default").create();
      }

      // docker logs -f ends when the container does: its output is the operator's log
      Process running =
          new ProcessBuilder("docker", "logs", "-f", container)
              .redirectErrorStream(true)
              .redirectOutput(project.logs().resolve("docker-wait.log").toFile())
              .start();
      try {
        Deployment made =
            await(
                "the Deployment of Guestbook from-image, made by the operator in the image",
                () ->
                    client.apps().deployments().inNamespace("default").withName("from-image").get(),
                running,
                "docker-wait.log");
        assertThat(made.getMetadata().getOwnerReferences().get(0).getName())
            .isEqualTo("from-image");
      } finally {
        running.destroy();
      }
    } finally {
      Docker.run(project.logs(), "docker-rm.log", "docker", "rm", "-f", container);
      Docker.run(project.logs(), "docker-rmi.log", "docker", "rmi", image);
    }
  }

  static String javaCommand() {
    return Path.of(System.getProperty("java.home"), "bin", "java").toString();
  }

  /**
   * Waits (3 minutes at most) for a value, failing early if {@code process} ends meanwhile; a
   * failure quotes the end of the process's log.
   */
  static <T> T await(String what, Supplier<T> value, Process process, String log) throws Exception {
    long deadline = System.nanoTime() + Duration.ofMinutes(3).toNanos();
    while (System.nanoTime() < deadline) {
      T found = value.get();
      if (found != null) {
        return found;
      }
      if (!process.isAlive()) {
        throw new AssertionError(
            what
                + ": the process ended (exit "
                + process.exitValue()
                + ") while waiting; "
                + log
                + " ends with:\n"
                + Commands.tail(project.logs().resolve(log)));
      }
      Thread.sleep(500);
    }
    throw new AssertionError(
        what
            + ": not within 3 minutes; "
            + log
            + " ends with:\n"
            + Commands.tail(project.logs().resolve(log)));
  }

  private static void awaitLine(String log, String line, Process process) throws Exception {
    await(
        "'" + line + "' in " + log,
        () -> Commands.read(project.logs().resolve(log)).contains(line) ? line : null,
        process,
        log);
  }
}
