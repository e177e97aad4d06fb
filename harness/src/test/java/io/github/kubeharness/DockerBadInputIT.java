package io.github.kubeharness;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.kubeharness.internal.process.FreePorts;
import io.github.kubeharness.launch.ControlPlanes;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * What the container and kind backends say for each answer a Docker engine can give them, against
 * the real engine of this machine: no engine at the address, a socket left by an engine that
 * stopped, a socket this user may not open, a port on the host network taken by another process.
 * Each message names the thing, what was wrong and the fix. (A missing image: {@code BadInputIT}; a
 * missing default bridge: {@link DockerBridgeIT}.)
 */
class DockerBadInputIT {

  @ParameterizedTest
  @EnumSource(
      value = Backend.class,
      names = {"CONTAINER", "KIND"})
  void noEngineAtTheAddressIsNamedWithTheFix(Backend backend, @TempDir Path dir) throws Exception {
    String address = "unix://" + dir.resolve("docker.sock");
    String failure = startInChild(backend, Map.of("DOCKER_HOST", address), List.of());
    assertThat(failure)
        .contains("is not available: Docker is not reachable: no Docker engine at " + address)
        .contains("there is no such socket")
        .contains("Start one (e.g. sudo systemctl start docker), or point DOCKER_HOST at");
  }

  @Test
  void aSocketNobodyAcceptsOnIsNamedWithTheFix(@TempDir Path dir) throws Exception {
    Path socket = dir.resolve("docker.sock");
    // Bound and closed: the file stays, as an engine that stopped leaves it.
    try (ServerSocketChannel gone = ServerSocketChannel.open(StandardProtocolFamily.UNIX)) {
      gone.bind(UnixDomainSocketAddress.of(socket));
    }
    String failure =
        startInChild(Backend.CONTAINER, Map.of("DOCKER_HOST", "unix://" + socket), List.of());
    assertThat(failure)
        .contains("nothing accepts connections on the Docker socket " + socket)
        .contains("Start the engine again");
  }

  /**
   * A user outside the socket's group, as on a laptop before {@code usermod -aG docker}: the second
   * local user, allowed to read this JVM's class path ({@code CAP_DAC_READ_SEARCH}) and nothing
   * more, against the real engine's socket.
   */
  @Test
  void aSocketThisUserMayNotOpenIsNamedWithTheFix(@TempDir Path dir) throws Exception {
    Path socket = Path.of("/var/run/docker.sock");
    assertThat(socket).as("this machine's Docker engine").exists();
    Path home = Files.createDirectories(dir.resolve("stranger"));
    Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-xr-x"));
    Files.setPosixFilePermissions(home, PosixFilePermissions.fromString("rwxrwxrwx"));
    List<String> asStranger =
        List.of(
            "setpriv",
            "--reuid=" + Stranger.NAME,
            "--regid=" + Stranger.NAME,
            "--clear-groups",
            "--inh-caps=+dac_read_search",
            "--ambient-caps=+dac_read_search",
            "--");
    String failure =
        startInChild(
            Backend.CONTAINER,
            Map.of("HOME", home.toString(), "DOCKER_HOST", "unix://" + socket),
            asStranger,
            "-Djava.io.tmpdir=" + home);
    assertThat(failure)
        .contains("permission denied on the Docker socket /var/run/docker.sock (owner root")
        .contains("this JVM runs as " + Stranger.NAME)
        .contains("sudo usermod -aG docker " + Stranger.NAME + ", then log in again");
  }

  /**
   * On the host network a component binds its port on the host: a port taken by another process
   * after it was found free makes the container exit, and the message names the port and the fix.
   */
  @Test
  void aPortTakenOnTheHostNetworkIsNamedWithTheFix() throws Exception {
    try (ServerSocket squatter = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
        ControlPlane controlPlane =
            ControlPlanes.create(
                ControlPlaneOptions.builder()
                    .withBackend(BackendOptions.container().withNetwork(NetworkMode.HOST))
                    .withProfile(Profile.MINIMAL)
                    .build())) {
      FreePorts.handOutNext(squatter.getLocalPort()); // etcd's client port: already bound
      assertThatThrownBy(controlPlane::start)
          .hasMessageContaining("etcd (")
          .hasMessageContaining(
              "It could not bind port "
                  + squatter.getLocalPort()
                  + " on 127.0.0.1: another"
                  + " process of this machine took it")
          .hasMessageContaining("Start again (each start picks new free ports)");
    }
  }

  /** Starts {@code backend} in a child JVM ({@link BadInputChild}); returns its failure. */
  static String startInChild(
      Backend backend, Map<String, String> environment, List<String> prefix, String... jvmOptions)
      throws IOException, InterruptedException {
    String outcome = outcomeInChild(backend, environment, prefix, jvmOptions);
    assertThat(outcome).as("the start failed").startsWith("FAILED ");
    return outcome;
  }

  /**
   * Starts {@code backend} in a child JVM with {@code environment} (a null value removes a
   * variable); returns its {@code FAILED …} line, or {@code STARTED}.
   */
  static String outcomeInChild(
      Backend backend, Map<String, String> environment, List<String> prefix, String... jvmOptions)
      throws IOException, InterruptedException {
    List<String> command = new ArrayList<>(prefix);
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.add("-cp");
    command.add(System.getProperty("java.class.path"));
    command.addAll(List.of(jvmOptions));
    command.add(BadInputChild.class.getName());
    command.add(backend.name());
    ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
    environment.forEach(
        (name, value) -> {
          if (value == null) {
            builder.environment().remove(name);
          } else {
            builder.environment().put(name, value);
          }
        });
    Process child = builder.start();
    child.getOutputStream().close();
    String output = new String(child.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(child.waitFor(3, TimeUnit.MINUTES)).as("the child finished: %s", output).isTrue();
    return output
        .lines()
        .filter(l -> l.startsWith("FAILED ") || l.equals("STARTED"))
        .findFirst()
        .orElseThrow(() -> new AssertionError("the child printed neither:\n" + output));
  }
}
