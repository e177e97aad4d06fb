package io.github.kubeharness.internal.webhooks;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HexFormat;
import java.util.List;
import java.util.OptionalLong;

/**
 * Who owns the other end of a TCP connection on this machine: the kernel's socket tables ({@code
 * /proc/net/tcp} and {@code tcp6}, readable by every user on Linux) list each socket's two
 * addresses and its owner's uid. The connection is open while a request is answered, so the
 * caller's socket is there to be found.
 */
final class LoopbackPeer {

  private static final List<Path> TABLES =
      List.of(Path.of("/proc/net/tcp"), Path.of("/proc/net/tcp6"));

  private LoopbackPeer() {}

  /** Whether this system lists its sockets' owners (Linux); elsewhere {@link #uid} finds none. */
  static boolean available() {
    return Files.isReadable(TABLES.get(0));
  }

  /**
   * The uid that owns the socket at {@code caller} connected to {@code server}; empty when no such
   * socket is listed (gone, or another system).
   */
  static OptionalLong uid(InetSocketAddress caller, InetSocketAddress server) {
    for (Path table : TABLES) {
      List<String> lines;
      try {
        lines = Files.readAllLines(table);
      } catch (IOException e) {
        continue; // no IPv6, or not Linux
      }
      for (String line : lines.subList(Math.min(1, lines.size()), lines.size())) {
        // sl local_address rem_address st queues timer retransmits uid timeout inode ...
        String[] fields = line.trim().split("\\s+");
        if (fields.length > 7 && is(fields[1], caller) && is(fields[2], server)) {
          return OptionalLong.of(Long.parseLong(fields[7]));
        }
      }
    }
    return OptionalLong.empty();
  }

  /** This process's effective uid, as the socket tables write it; empty off Linux. */
  static OptionalLong ownUid() {
    try {
      for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
        if (line.startsWith("Uid:")) {
          return OptionalLong.of(Long.parseLong(line.substring(4).trim().split("\\s+")[1]));
        }
      }
    } catch (IOException | RuntimeException e) {
      // not Linux
    }
    return OptionalLong.empty();
  }

  // "0100007F:1F90": the address in the kernel's byte order (each 32-bit word little-endian),
  // the port in hex.
  private static boolean is(String field, InetSocketAddress address) {
    int colon = field.indexOf(':');
    if (colon < 0 || Integer.parseInt(field.substring(colon + 1), 16) != address.getPort()) {
      return false;
    }
    byte[] raw = HexFormat.of().parseHex(field.substring(0, colon));
    for (int word = 0; word < raw.length; word += 4) {
      for (int i = 0; i < 2; i++) {
        byte b = raw[word + i];
        raw[word + i] = raw[word + 3 - i];
        raw[word + 3 - i] = b;
      }
    }
    try {
      // An IPv4-mapped IPv6 address comes back as the IPv4 address it maps.
      return InetAddress.getByAddress(raw).equals(address.getAddress());
    } catch (UnknownHostException e) {
      return false;
    }
  }
}
