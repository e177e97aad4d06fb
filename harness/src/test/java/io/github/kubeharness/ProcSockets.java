package io.github.kubeharness;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;

/**
 * The sockets a process can be reached on, read from {@code /proc} as another user of the machine
 * would look for them: each descriptor's socket inode ({@code /proc/<pid>/fd}) matched against the
 * tables of the process's own network namespace ({@code /proc/<pid>/net/tcp}, {@code tcp6}, {@code
 * udp}, {@code udp6}, {@code unix}). Only sockets that accept something count: TCP in LISTEN, UDP
 * bound to a port and not connected, Unix sockets listening or bound for datagrams. Works for
 * containers' processes too (Docker runs them as processes of this machine), which is why the
 * tables are read per process and not from {@code /proc/net}.
 */
public final class ProcSockets {

  private static final long ACCEPTING_CONNECTIONS = 0x10000; // __SO_ACCEPTCON in net/unix
  private static final String UNIX_DATAGRAM = "0002";

  private ProcSockets() {}

  /**
   * One socket that accepts connections or datagrams.
   *
   * @param protocol tcp, tcp6, udp, udp6, unix (stream) or unixgram (datagram)
   * @param address dotted/colon form of the bound address (TCP/UDP), or empty
   * @param port the bound port (TCP/UDP), or 0
   * @param path the bound path of a Unix socket ({@code @name} for the abstract namespace), or ""
   * @param netns the process's network namespace ({@code net:[inode]}): same as ours or not
   */
  public record OpenSocket(
      long pid,
      String process,
      String protocol,
      String address,
      int port,
      String path,
      long inode,
      String netns) {

    public boolean isUnix() {
      return protocol.startsWith("unix");
    }

    public boolean isTcp() {
      return protocol.startsWith("tcp");
    }

    public boolean isLoopback() {
      return address.startsWith("127.") || address.equals("::1");
    }

    public boolean isAnyAddress() {
      return address.equals("0.0.0.0") || address.equals("::");
    }

    /** In a network namespace other than this JVM's (a container's). */
    public boolean inOtherNetworkNamespace() {
      return !netns.equals(networkNamespace(ProcessHandle.current().pid()));
    }

    /** How the table names it: {@code tcp 127.0.0.1:6443}, {@code unix /run/…/etcd.sock}. */
    public String where() {
      return isUnix() ? protocol + " " + path : protocol + " " + address + ":" + port;
    }
  }

  /** The accepting sockets of every process in {@code pids}, in that order. */
  public static List<OpenSocket> accepting(Iterable<Long> pids) {
    List<OpenSocket> sockets = new ArrayList<>();
    for (long pid : pids) {
      sockets.addAll(accepting(pid));
    }
    return sockets;
  }

  /** The accepting sockets of one process; none when it is gone. */
  public static List<OpenSocket> accepting(long pid) {
    Set<Long> inodes = socketInodes(pid);
    if (inodes.isEmpty()) {
      return List.of();
    }
    String process = processName(pid);
    String netns = networkNamespace(pid);
    List<OpenSocket> sockets = new ArrayList<>();
    Path net = Path.of("/proc", Long.toString(pid), "net");
    for (String protocol : List.of("tcp", "tcp6", "udp", "udp6")) {
      for (String[] f : rows(net.resolve(protocol))) {
        long inode = Long.parseLong(f[9]);
        String[] local = f[1].split(":");
        int port = Integer.parseInt(local[1], 16);
        boolean accepting =
            protocol.startsWith("tcp") ? f[3].equals("0A") : f[3].equals("07") && port != 0;
        if (accepting && inodes.contains(inode)) {
          sockets.add(
              new OpenSocket(pid, process, protocol, address(local[0]), port, "", inode, netns));
        }
      }
    }
    for (String[] f : rows(net.resolve("unix"))) {
      // Num RefCount Protocol Flags Type St Inode [Path]
      long inode = Long.parseLong(f[6]);
      String path = f.length > 7 ? f[7] : "";
      boolean listening = (Long.parseLong(f[3], 16) & ACCEPTING_CONNECTIONS) != 0;
      boolean boundDatagram = f[4].equals(UNIX_DATAGRAM) && f[5].equals("01") && !path.isEmpty();
      if ((listening || boundDatagram) && inodes.contains(inode)) {
        String protocol = boundDatagram ? "unixgram" : "unix";
        sockets.add(new OpenSocket(pid, process, protocol, "", 0, path, inode, netns));
      }
    }
    return sockets;
  }

  /** {@code root} and every process below it, found through {@code /proc/<pid>/stat}. */
  public static List<Long> processTree(long root) {
    Map<Long, List<Long>> children = new HashMap<>();
    try (Stream<Path> entries = Files.list(Path.of("/proc"))) {
      for (Path entry : (Iterable<Path>) entries::iterator) {
        String name = entry.getFileName().toString();
        if (name.chars().allMatch(Character::isDigit)) {
          parent(entry)
              .ifPresent(
                  parent ->
                      children.computeIfAbsent(parent, p -> new ArrayList<>()).add(pid(name)));
        }
      }
    } catch (IOException e) {
      throw new IllegalStateException("Cannot list /proc", e);
    }
    Set<Long> tree = new LinkedHashSet<>();
    List<Long> queue = new ArrayList<>(List.of(root));
    while (!queue.isEmpty()) {
      long pid = queue.remove(0);
      if (tree.add(pid)) {
        queue.addAll(children.getOrDefault(pid, List.of()));
      }
    }
    return List.copyOf(tree);
  }

  /** The process's command line, its arguments joined by spaces ("" when it is gone). */
  public static String commandLine(long pid) {
    try {
      byte[] raw = Files.readAllBytes(Path.of("/proc", Long.toString(pid), "cmdline"));
      return new String(raw, StandardCharsets.UTF_8).replace('\0', ' ').trim();
    } catch (IOException gone) {
      return "";
    }
  }

  /**
   * The process's program: the file name of its first argument ({@code /proc/<pid>/comm} cuts names
   * at 15 characters, {@code kube-controller}), else comm.
   */
  public static String processName(long pid) {
    try {
      byte[] raw = Files.readAllBytes(Path.of("/proc", Long.toString(pid), "cmdline"));
      String first = new String(raw, StandardCharsets.UTF_8).split("\0", 2)[0];
      if (!first.isBlank()) {
        return first.substring(first.lastIndexOf('/') + 1).split(" ", 2)[0];
      }
      return Files.readString(Path.of("/proc", Long.toString(pid), "comm")).trim();
    } catch (IOException gone) {
      return "?";
    }
  }

  static String networkNamespace(long pid) {
    try {
      return Files.readSymbolicLink(Path.of("/proc", Long.toString(pid), "ns", "net")).toString();
    } catch (IOException gone) {
      return "?";
    }
  }

  private static Set<Long> socketInodes(long pid) {
    Set<Long> inodes = new LinkedHashSet<>();
    try (Stream<Path> fds = Files.list(Path.of("/proc", Long.toString(pid), "fd"))) {
      for (Path fd : (Iterable<Path>) fds::iterator) {
        try {
          String target = Files.readSymbolicLink(fd).toString();
          if (target.startsWith("socket:[")) {
            inodes.add(Long.parseLong(target.substring(8, target.length() - 1)));
          }
        } catch (IOException closedMeanwhile) {
          // a descriptor closed while we read: not a socket that stays open
        }
      }
    } catch (IOException gone) {
      return Set.of();
    }
    return inodes;
  }

  private static List<String[]> rows(Path table) {
    try {
      List<String> lines = Files.readAllLines(table);
      return lines.subList(1, lines.size()).stream().map(l -> l.trim().split("\\s+")).toList();
    } catch (IOException gone) {
      return List.of();
    }
  }

  private static Optional<Long> parent(Path process) {
    try {
      String stat = Files.readString(process.resolve("stat"));
      // pid (comm) state ppid …; comm may hold spaces and parentheses: read after the last ')'.
      String[] after = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
      return Optional.of(Long.parseLong(after[1]));
    } catch (IOException | RuntimeException gone) {
      return Optional.empty();
    }
  }

  private static long pid(String name) {
    return Long.parseLong(name);
  }

  // /proc/net/tcp writes IPv4 as one little-endian 32-bit word, IPv6 as four of them.
  static String address(String hex) {
    if (hex.length() == 8) {
      long word = Long.parseLong(hex, 16);
      return (word & 0xff)
          + "."
          + (word >> 8 & 0xff)
          + "."
          + (word >> 16 & 0xff)
          + "."
          + (word >> 24);
    }
    StringBuilder bytes = new StringBuilder();
    for (int w = 0; w < 4; w++) {
      String word = hex.substring(w * 8, w * 8 + 8);
      for (int b = 3; b >= 0; b--) {
        bytes.append(word, b * 2, b * 2 + 2);
      }
    }
    String v6 = bytes.toString().toLowerCase(java.util.Locale.ROOT);
    if (v6.startsWith("00000000000000000000ffff")) {
      return address(littleEndian(v6.substring(24))); // ::ffff:a.b.c.d
    }
    if (v6.equals("0".repeat(32))) {
      return "::";
    }
    if (v6.equals("0".repeat(31) + "1")) {
      return "::1";
    }
    StringBuilder text = new StringBuilder();
    for (int g = 0; g < 8; g++) {
      text.append(g == 0 ? "" : ":")
          .append(Integer.toHexString(Integer.parseInt(v6.substring(g * 4, g * 4 + 4), 16)));
    }
    return text.toString();
  }

  private static String littleEndian(String bigEndianHex) {
    StringBuilder reversed = new StringBuilder();
    for (int b = 3; b >= 0; b--) {
      reversed.append(bigEndianHex, b * 2, b * 2 + 2);
    }
    return reversed.toString();
  }
}
