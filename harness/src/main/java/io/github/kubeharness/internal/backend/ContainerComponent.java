package io.github.kubeharness.internal.backend;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.exception.NotFoundException;
import io.github.kubeharness.KubeHarnessException;
import io.github.kubeharness.Settings;
import io.github.kubeharness.internal.process.HealthCheck;
import io.github.kubeharness.internal.process.LogTail;
import io.github.kubeharness.internal.process.Waits;
import io.github.kubeharness.internal.process.Watchdog;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.containers.BindMode;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.containers.wait.strategy.AbstractWaitStrategy;
import org.testcontainers.images.builder.Transferable;
import org.testcontainers.utility.DockerImageName;

/**
 * One control-plane container: its image, entrypoint and flags, started and awaited with the same
 * readiness probe as the local process, removed by the watchdog if the JVM dies.
 */
final class ContainerComponent implements AutoCloseable {

  private final String name;
  private final String image;
  // kubeharness.offline: an image that is not here is an error, not a pull.
  private final boolean offline;
  private final GenericContainer<?> container;
  // Its output as it ran, followed from the start: a container that exits during start is removed
  // by Testcontainers' failure handling, after which Docker has no log left to ask for.
  private final Queue<String> output = new ConcurrentLinkedQueue<>();
  private static final int FOLLOWED_LINES = 200;
  private static final String BIND_FAILURE = "address already in use";

  ContainerComponent(String name, String image, String entrypoint, boolean offline) {
    this.name = name;
    this.image = image;
    this.offline = offline;
    this.container =
        new GenericContainer<>(DockerImageName.parse(image))
            .withCreateContainerCmdModifier(cmd -> cmd.withEntrypoint(entrypoint))
            .withLogConsumer(frame -> keep(frame.getUtf8String().stripTrailing()))
            // The images are FROM scratch / distroless: no shell for Testcontainers' port check.
            // Readiness is checked by the real probe after start instead.
            .waitingFor(
                new AbstractWaitStrategy() {
                  @Override
                  protected void waitUntilReady() {}
                });
  }

  GenericContainer<?> container() {
    return container;
  }

  ContainerComponent command(String... args) {
    container.withCommand(args);
    return this;
  }

  ContainerComponent command(List<String> args) {
    return command(args.toArray(String[]::new));
  }

  ContainerComponent tmpfs(String path) {
    container.withTmpFs(Map.of(path, "rw"));
    return this;
  }

  ContainerComponent file(String path, String content) {
    container.withCopyToContainer(Transferable.of(content, 0644), path);
    return this;
  }

  ContainerComponent bind(Path hostDirectory, String containerPath) {
    container.withFileSystemBind(hostDirectory.toString(), containerPath, BindMode.READ_WRITE);
    return this;
  }

  /** Starts the container and polls {@code ready} until the deadline; fails with its log tail. */
  void start(long deadline, HealthCheck ready) {
    ensureImage();
    try {
      container.start();
    } catch (RuntimeException e) {
      throw new KubeHarnessException(startFailure(e), e);
    }
    Watchdog.get().watchContainer(container.getContainerId());
    Waits.poll(
        ready::isReady,
        deadline,
        () -> {
          if (!container.isRunning()) {
            throw new KubeHarnessException(exited(logTail()));
          }
        },
        last ->
            new KubeHarnessException(
                name
                    + " ("
                    + image
                    + ") did not become ready within the start timeout"
                    + (last == null ? "" : " (last check: " + last + ")")
                    + ".\nLast lines of its log:\n"
                    + logTail()
                    + "Raise -Dkubeharness.start.timeout.seconds if Docker is slow here.",
                last));
  }

  // Testcontainers retries a failing pull for minutes; one attempt says as much, and fast.
  private void ensureImage() {
    DockerClient docker = DockerClientFactory.instance().client();
    try {
      docker.inspectImageCmd(image).exec();
      return;
    } catch (NotFoundException absent) {
      if (offline) {
        throw new KubeHarnessException(
            imageMissing("it is absent, and " + Settings.OFFLINE + "=true forbids pulling it"));
      }
    }
    try {
      docker.pullImageCmd(image).start().awaitCompletion(5, TimeUnit.MINUTES);
    } catch (RuntimeException e) {
      throw new KubeHarnessException(imageMissing(e.getMessage()), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new KubeHarnessException("Interrupted while pulling " + image, e);
    }
  }

  private String imageMissing(String why) {
    return "Image "
        + image
        + " for "
        + name
        + " is neither present in the local Docker nor pullable ("
        + why
        + "). Pull it (docker pull "
        + image
        + "), build it from the provisioned binaries (make images), or name another image with -D"
        + settingFor(name)
        + "=<image>.";
  }

  private String startFailure(RuntimeException e) {
    String causes = "";
    for (Throwable t = e; t != null; t = t.getCause()) {
      causes += t.getMessage() + " ";
    }
    if (causes.contains("pull") || causes.contains("No such image")) {
      return imageMissing(e.getMessage());
    }
    if (causes.contains("Container did not start correctly")) {
      // It exited before Testcontainers looked (how fast depends on the runtime): the same
      // failure as an exit while waiting for readiness, and its log says why.
      String log = logTail();
      container.stop();
      return exited(log);
    }
    return "Cannot start the " + name + " container (" + image + "): " + e.getMessage();
  }

  // On the host's network a component binds a port on the host: one handed out as free can be
  // taken by another process before the container starts (Go says "address already in use").
  private String exited(String log) {
    String message = name + " (" + image + ") exited during start.";
    if (log.contains(BIND_FAILURE)) {
      java.util.regex.Matcher port =
          java.util.regex.Pattern.compile("127\\.0\\.0\\.1:(\\d+): bind: " + BIND_FAILURE)
              .matcher(log);
      message +=
          " It could not bind "
              + (port.find() ? "port " + port.group(1) + " on 127.0.0.1" : "its port")
              + ": another process of this machine took it after kube-harness found it free (host"
              + " networking shares the host's ports). Start again (each start picks new free"
              + " ports), or find what holds it with `ss -ltnp`.";
    }
    return message + "\nLast lines of its log:\n" + log;
  }

  private static String settingFor(String name) {
    return switch (name) {
      case "etcd" -> ContainerImages.ETCD_SETTING;
      case "kube-apiserver" -> ContainerImages.APISERVER_SETTING;
      default -> ContainerImages.CONTROLLER_MANAGER_SETTING;
    };
  }

  // The last lines only: a long run's log would otherwise pile up here.
  private void keep(String line) {
    output.add(line);
    while (output.size() > FOLLOWED_LINES) {
      output.poll();
    }
  }

  // Docker's log while the container exists; what was followed of it once it is gone.
  private List<String> logLines() {
    List<String> lines = List.of();
    try {
      lines = container.getLogs().lines().toList();
    } catch (RuntimeException gone) {
      // read from what was followed below
    }
    return lines.isEmpty() ? List.copyOf(output) : lines;
  }

  // Docker copies a container's output into its log asynchronously: right after an exit the log
  // can still be empty (seen on a loaded CI machine), so an empty one is read again for a moment.
  private String logTail() {
    try {
      // A container that just exited may not have its output in the log yet; on a loaded
      // machine that took more than 3 s once (CI, 2026-12-04).
      long deadline = Waits.deadline(Duration.ofSeconds(10));
      List<String> lines = logLines();
      while (lines.isEmpty() && System.nanoTime() < deadline) {
        Waits.sleep(100);
        lines = logLines();
      }
      return LogTail.of(lines);
    } catch (RuntimeException e) {
      return "    (logs not readable: " + e.getMessage() + ")\n";
    }
  }

  @Override
  public void close() {
    String id = container.getContainerId();
    container.stop();
    if (id != null) {
      Watchdog.get().unwatchContainer(id);
    }
  }
}
