package io.github.kubeharness;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.kubeharness.KnownServers.Rule;
import io.github.kubeharness.ProcSockets.OpenSocket;
import io.github.kubeharness.SocketProbe.Answer;
import io.github.kubeharness.SocketProbe.Attempt;
import io.github.kubeharness.SocketProbe.StrangerCertificate;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * Every socket a run opened, each tried by the second local user with no credentials, a bogus
 * bearer token and a self-signed client certificate, and by the run's owner with the run's own
 * credentials. The census passes when every stranger's attempt is refused (nothing read), every
 * control reads, every socket of the host's network namespace is on loopback, and no socket is
 * unknown. Its table goes to standard output and to {@code target/socket-census/<backend>.md}.
 */
public final class SocketCensus {

  private final String backend;
  private final List<Rule> rules = new ArrayList<>();
  private Function<String, Optional<String>> containerAddress = netns -> Optional.empty();

  private SocketCensus(String backend) {
    this.backend = backend;
  }

  /** A census of the {@code backend} run (its name in the table and the file). */
  public static SocketCensus of(String backend) {
    return new SocketCensus(backend);
  }

  /** Knows the servers {@code known} claims. */
  public SocketCensus knowing(Rule... known) {
    rules.addAll(List.of(known));
    return this;
  }

  /** The address of a container's network namespace on its Docker network, by namespace. */
  public SocketCensus reachingContainersBy(Function<String, Optional<String>> address) {
    this.containerAddress = address;
    return this;
  }

  public List<Rule> rules() {
    return List.copyOf(rules);
  }

  /**
   * One socket's line of the table. {@code unreachable}: a Unix socket in a container that its
   * owner cannot connect to either (its name removed after it was bound, as the kubelet's probe
   * sockets are, or not reachable from the host's side): no way in for anyone on the host.
   */
  public record Row(
      OpenSocket socket,
      String service,
      Map<Attempt, Answer> stranger,
      Answer own,
      List<String> problems,
      boolean unreachable) {

    Row(
        OpenSocket socket,
        String service,
        Map<Attempt, Answer> stranger,
        Answer own,
        List<String> problems) {
      this(socket, service, stranger, own, problems, false);
    }
  }

  /** Tries every socket (once each, however many processes share it) and returns the rows. */
  public List<Row> take(List<OpenSocket> sockets) throws IOException, InterruptedException {
    StrangerCertificate certificate = CensusCredentials.strangerCertificate();
    try {
      List<Row> rows = new ArrayList<>();
      Set<String> seen = new HashSet<>();
      for (OpenSocket socket : sockets) {
        if (seen.add(socket.netns() + socket.inode())) {
          rows.add(row(socket, certificate));
        }
      }
      return rows;
    } finally {
      CensusCredentials.remove(certificate);
    }
  }

  private Row row(OpenSocket socket, StrangerCertificate certificate) {
    List<String> problems = new ArrayList<>();
    if (!socket.isUnix() && !socket.inOtherNetworkNamespace() && !socket.isLoopback()) {
      problems.add("listens beyond loopback on the host (" + socket.address() + ")");
    }
    Optional<SocketReach> reach = SocketReach.of(socket, containerAddress);
    if (reach.isEmpty()) {
      problems.add("no address to reach it from the host: the census cannot try it");
      return new Row(socket, "?", Map.of(), null, problems);
    }
    Optional<SocketProbe> probe = Optional.empty();
    for (Rule rule : rules) {
      probe = rule.probe(socket, reach.get());
      if (probe.isPresent()) {
        break;
      }
    }
    if (probe.isEmpty()) {
      problems.add(
          "unknown socket: the census does not know how to probe "
              + socket.where()
              + " of "
              + socket.process()
              + " (pid "
              + socket.pid()
              + ", "
              + ProcSockets.commandLine(socket.pid())
              + ")");
      return new Row(socket, "unknown", Map.of(), null, problems);
    }
    // The control first: a stale rule of the fault proxy has a snapshot to give away only then.
    Answer own = probe.get().asOwner();
    boolean unreachable = probe.get().connectOnly() && !own.connected();
    if (!probe.get().admitted(own) && !unreachable) {
      problems.add("control: the run's own credentials did not read (" + own.summary() + ")");
    }
    Map<Attempt, Answer> stranger = new EnumMap<>(Attempt.class);
    for (Attempt attempt : Attempt.values()) {
      Answer answer = probe.get().asStranger(attempt, certificate);
      stranger.put(attempt, answer);
      if (probe.get().admitted(answer)) {
        problems.add(
            "second user with "
                + attempt.column
                + " read: "
                + answer.summary()
                + " "
                + abbreviated(answer.body()));
      }
    }
    return new Row(socket, probe.get().service(), stranger, own, problems, unreachable);
  }

  /** The table, in Markdown. */
  public String table(List<Row> rows) {
    StringBuilder table =
        new StringBuilder(
            "| socket | process | backend | server | none | Bearer x | self-signed cert |"
                + " own credentials | verdict |\n|---|---|---|---|---|---|---|---|---|\n");
    for (Row row : rows) {
      table
          .append("| `")
          .append(row.socket().where())
          .append(row.socket().inOtherNetworkNamespace() ? "` (container's namespace)" : "`")
          .append(" | ")
          .append(row.socket().process())
          .append(" | ")
          .append(backend)
          .append(" | ")
          .append(row.service())
          .append(" | ");
      for (Attempt attempt : Attempt.values()) {
        Answer answer = row.stranger().get(attempt);
        table.append(answer == null ? "—" : answer.summary()).append(" | ");
      }
      table
          .append(row.own() == null ? "—" : row.own().summary())
          .append(" | ")
          .append(
              !row.problems().isEmpty()
                  ? "**FAIL**"
                  : row.unreachable() ? "unreachable (its owner too)" : "refused")
          .append(" |\n");
    }
    return table.toString();
  }

  /**
   * Prints the table, writes it to {@code target/socket-census/<backend>.md}, and fails naming
   * every problem when a row has one.
   */
  public void report(List<Row> rows) throws IOException {
    String table = table(rows);
    List<String> problems = new ArrayList<>();
    for (Row row : rows) {
      row.problems()
          .forEach(
              p -> problems.add(row.socket().where() + " (" + row.socket().process() + "): " + p));
    }
    // An unreachable Unix socket passes only while the probe is seen to connect elsewhere: the
    // census's own control that "no connect" is not the probe failing everywhere.
    boolean someUnreachable = rows.stream().anyMatch(Row::unreachable);
    boolean someConnected =
        rows.stream().anyMatch(r -> r.socket().isUnix() && r.own() != null && r.own().connected());
    if (someUnreachable && !someConnected) {
      problems.add("no Unix socket admitted its owner either: the probe cannot connect at all");
    }
    Path file = Path.of("target", "socket-census", backend + ".md");
    Files.createDirectories(file.getParent());
    Files.writeString(
        file,
        "# Socket census: "
            + backend
            + "\n\n"
            + table
            + (problems.isEmpty() ? "" : "\nProblems:\n- " + String.join("\n- ", problems) + "\n"));
    System.out.println("[socket census] " + backend + " (" + file.toAbsolutePath() + ")\n" + table);
    assertThat(rows).as("sockets the %s run opened", backend).isNotEmpty();
    assertThat(problems).as("socket census of the %s run:\n%s", backend, table).isEmpty();
  }

  private static String abbreviated(String body) {
    String line = body.replaceAll("\\s+", " ").trim();
    return line.length() > 80 ? "(" + line.substring(0, 80) + "…)" : "(" + line + ")";
  }
}
