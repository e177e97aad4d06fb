package io.github.kubeharness;

import io.github.kubeharness.ProcSockets.OpenSocket;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * Where a stranger and the run's owner send a request to reach one socket. The stranger goes the
 * way any user of the machine could: a TCP socket of this network namespace at its loopback
 * address, a container's at the container's address on its Docker network, a Unix socket by its
 * path (a container's through {@code /proc/<pid>/root}). The owner's control goes the same way,
 * except for a socket on a container's own loopback, which only a process inside that namespace can
 * reach: the control runs there ({@code nsenter -n}), while the stranger tries the container's
 * address.
 *
 * @param strangerAddress host:port (or the placeholder host of a Unix socket) for the stranger
 * @param ownAddress host:port for the owner
 * @param strangerArgs curl arguments that pick a Unix socket for the stranger
 * @param ownArgs the same for the owner
 * @param ownPrefix the command the owner's curl runs under
 */
public record SocketReach(
    String scheme,
    String strangerAddress,
    String ownAddress,
    List<String> strangerArgs,
    List<String> ownArgs,
    List<String> ownPrefix) {

  public String strangerUrl(String path) {
    return scheme + "://" + strangerAddress + path;
  }

  public String ownUrl(String path) {
    return scheme + "://" + ownAddress + path;
  }

  /**
   * This reach with the owner's control sent from inside {@code socket}'s network namespace to its
   * loopback, or at the address it is bound to (for a server that checks a client certificate's
   * addresses against the caller's, as etcd's peer port does: from outside the container the caller
   * is the Docker gateway).
   */
  public SocketReach ownFromInside(ProcSockets.OpenSocket socket) {
    if (!socket.inOtherNetworkNamespace()) {
      return this;
    }
    return new SocketReach(
        scheme,
        strangerAddress,
        inside(socket) + ":" + socket.port(),
        strangerArgs,
        ownArgs,
        List.of("nsenter", "-t", Long.toString(socket.pid()), "-n"));
  }

  // A socket bound to every address answers on loopback; one bound to an address (kind's etcd
  // peer port, on the node's) only there.
  private static String inside(ProcSockets.OpenSocket socket) {
    String address = socket.address();
    if (address.equals("0.0.0.0") || address.equals("::") || address.startsWith("127.")) {
      return "127.0.0.1";
    }
    return address.contains(":") ? "[" + address + "]" : address;
  }

  /** This reach with another scheme (the socket's protocol decides, not where it is). */
  public SocketReach withScheme(String other) {
    return new SocketReach(other, strangerAddress, ownAddress, strangerArgs, ownArgs, ownPrefix);
  }

  /**
   * How to reach {@code socket}; {@code containerAddress} gives a network namespace's address on
   * its Docker network (empty for namespaces the host cannot route to).
   */
  public static Optional<SocketReach> of(
      OpenSocket socket, Function<String, Optional<String>> containerAddress) {
    List<String> enter = List.of("nsenter", "-t", Long.toString(socket.pid()), "-n");
    if (socket.isUnix()) {
      if (socket.path().startsWith("@")) {
        // The abstract namespace belongs to the network namespace: a stranger on the host can
        // reach only ours.
        List<String> args = List.of("--abstract-unix-socket", socket.path().substring(1));
        return Optional.of(
            new SocketReach(
                "http",
                "localhost",
                "localhost",
                args,
                args,
                socket.inOtherNetworkNamespace() ? enter : List.of()));
      }
      String path =
          sameMountNamespace(socket.pid())
              ? socket.path()
              : "/proc/" + socket.pid() + "/root" + socket.path();
      List<String> args = List.of("--unix-socket", path);
      return Optional.of(new SocketReach("http", "localhost", "localhost", args, args, List.of()));
    }
    String port = ":" + socket.port();
    if (!socket.inOtherNetworkNamespace()) {
      String host =
          socket.isLoopback() || socket.isAnyAddress() ? loopbackOf(socket) : bracket(socket);
      return Optional.of(
          new SocketReach("https", host + port, host + port, List.of(), List.of(), List.of()));
    }
    Optional<String> outside = containerAddress.apply(socket.netns());
    if (outside.isEmpty()) {
      return Optional.empty();
    }
    if (socket.isLoopback()) {
      return Optional.of(
          new SocketReach(
              "https", outside.get() + port, bracket(socket) + port, List.of(), List.of(), enter));
    }
    String host = socket.isAnyAddress() ? outside.get() : bracket(socket);
    return Optional.of(
        new SocketReach("https", host + port, host + port, List.of(), List.of(), List.of()));
  }

  private static String loopbackOf(OpenSocket socket) {
    return socket.address().equals("::1") ? "[::1]" : "127.0.0.1";
  }

  private static String bracket(OpenSocket socket) {
    return socket.address().contains(":") ? "[" + socket.address() + "]" : socket.address();
  }

  private static boolean sameMountNamespace(long pid) {
    try {
      Path self = Path.of("/proc/self/ns/mnt");
      Path other = Path.of("/proc", Long.toString(pid), "ns", "mnt");
      return Files.readSymbolicLink(self).equals(Files.readSymbolicLink(other));
    } catch (IOException gone) {
      return false;
    }
  }
}
