package io.github.kubeharness.internal.backend;

import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Optional;

/**
 * The first question about a local Docker engine, asked of its Unix socket before any client
 * library hides the answer: is there a socket, may we open it, does anything accept on it. Each
 * failure is put as what was found where, and the fix. Engines reached over TCP ({@code
 * DOCKER_HOST=tcp://…}) are left to the client: kube-harness supports a local engine only.
 */
final class DockerSocket {

  static final String DEFAULT = "unix:///var/run/docker.sock";

  private DockerSocket() {}

  /**
   * The engine's address as Docker's own clients take it: {@code DOCKER_HOST}, else the default.
   */
  static String address() {
    String host = System.getenv("DOCKER_HOST");
    return host == null || host.isBlank() ? DEFAULT : host;
  }

  /** What keeps {@link #address()} from being used, or empty when a connection is accepted. */
  static Optional<String> problem() {
    return problem(address());
  }

  /** What keeps the engine at {@code address} from being used, or empty. */
  static Optional<String> problem(String address) {
    if (!address.startsWith("unix://")) {
      return Optional.empty();
    }
    Path socket = Path.of(address.substring("unix://".length()));
    if (!Files.exists(socket)) {
      return Optional.of(
          "no Docker engine at "
              + address
              + " (there is no such socket). Start one (e.g. sudo systemctl start docker), or point"
              + " DOCKER_HOST at the socket of a running engine");
    }
    try (SocketChannel channel = SocketChannel.open(StandardProtocolFamily.UNIX)) {
      channel.connect(UnixDomainSocketAddress.of(socket));
      return Optional.empty();
    } catch (IOException e) {
      String why = String.valueOf(e.getMessage());
      if (why.contains("Permission denied")) {
        return Optional.of(
            "permission denied on the Docker socket "
                + socket
                + " ("
                + owner(socket)
                + "; this JVM runs as "
                + user()
                + "). Add yourself to the socket's group (sudo usermod -aG docker "
                + user()
                + ", then log in again), or run the tests as a user who may use Docker");
      }
      if (why.contains("Connection refused")) {
        return Optional.of(
            "nothing accepts connections on the Docker socket "
                + socket
                + " (an engine that stopped left it behind). Start the engine again (e.g. sudo"
                + " systemctl start docker)");
      }
      return Optional.of("the Docker socket " + socket + " cannot be opened: " + why);
    }
  }

  private static String user() {
    return ProcessHandle.current().info().user().orElse("this user");
  }

  private static String owner(Path socket) {
    try {
      PosixFileAttributes attributes = Files.readAttributes(socket, PosixFileAttributes.class);
      return "owner "
          + attributes.owner().getName()
          + ", group "
          + attributes.group().getName()
          + ", mode "
          + PosixFilePermissions.toString(attributes.permissions());
    } catch (IOException | UnsupportedOperationException e) {
      return "its owner unreadable: " + e.getMessage();
    }
  }
}
