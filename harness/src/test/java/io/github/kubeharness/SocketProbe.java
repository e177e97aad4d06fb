package io.github.kubeharness;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;

/**
 * How the census tries one socket: the request that would read something from the server behind it
 * (a list of Secrets, etcd's whole keyspace, metrics, an admission review), sent with {@code curl}
 * as the second local user three ways — no credentials, a bogus bearer token, a self-signed client
 * certificate — and once as the run's owner with the run's own credentials, which must succeed: the
 * positive control that shows the socket is really that server and that the probe can see a read.
 *
 * @param service what serves there, for the table
 * @param reach where the second user and the owner send the request
 * @param path the request's path (and query)
 * @param request curl arguments of the request itself (method, body, headers)
 * @param ownCredentials curl arguments with the run's own credentials for the control
 * @param ownControl a control that is not a curl request (the API server calling a webhook), or
 *     null
 */
public record SocketProbe(
    String service,
    SocketReach reach,
    String path,
    List<String> request,
    List<String> ownCredentials,
    Callable<Answer> ownControl,
    boolean connectOnly) {

  /** A probe whose control is a curl request with {@code ownCredentials}. */
  public static SocketProbe of(
      String service,
      SocketReach reach,
      String path,
      List<String> request,
      List<String> ownCredentials) {
    return new SocketProbe(service, reach, path, request, ownCredentials, null, false);
  }

  /** This probe with a control that is not a curl request. */
  public SocketProbe withControl(Callable<Answer> control) {
    return new SocketProbe(service, reach, path, request, List.of(), control, false);
  }

  /**
   * A socket whose protocol is not HTTP (containerd's gRPC, systemd's): what counts is whether a
   * connection is made at all, which a stranger's must not be.
   */
  public static SocketProbe connection(String service, SocketReach reach) {
    return new SocketProbe(service, reach, "/", List.of(), List.of(), null, true);
  }

  /** Whether {@code answer} got in: read something, or for a non-HTTP socket, connected. */
  public boolean admitted(Answer answer) {
    return connectOnly ? answer.connected() : answer.read();
  }

  /** The three ways a stranger tries, in the table's order. */
  public enum Attempt {
    NO_CREDENTIALS("none"),
    BOGUS_TOKEN("Bearer x"),
    SELF_SIGNED_CERTIFICATE("self-signed cert");

    final String column;

    Attempt(String column) {
      this.column = column;
    }
  }

  /** What one attempt got: curl's exit code, the HTTP status (0: no answer) and the body. */
  public record Answer(int exitCode, int status, String body) {

    /** A 2xx answer: the request read (or did) something. */
    public boolean read() {
      return status >= 200 && status < 300;
    }

    /** The connection was made (curl's exit 7 is "could not connect"; anything else got in). */
    public boolean connected() {
      return exitCode != 7 && exitCode != -1;
    }

    /** For the table: the status, or why no HTTP answer came (curl's own words, shortened). */
    public String summary() {
      if (status != 0) {
        return status + (read() ? " READ" : "");
      }
      String why = body.lines().filter(l -> l.startsWith("curl:")).findFirst().orElse(body).trim();
      why = why.replaceFirst("^curl: \\(\\d+\\) ", "");
      if (why.contains("Permission denied")) {
        return "no connect (permission denied)";
      }
      if (exitCode == 7) {
        return "no connect ("
            + (why.contains("refused") ? "connection refused" : "curl exit 7")
            + ")";
      }
      if (why.contains("Connection refused") || why.contains("Couldn't connect")) {
        return "no connect (" + (why.length() > 40 ? why.substring(0, 40) + "…" : why) + ")";
      }
      if (why.contains("alert") || why.contains("SSL") || why.contains("TLS")) {
        return "TLS refused (" + tlsReason(why) + ")";
      }
      return "curl exit " + exitCode + (why.isEmpty() ? "" : ": " + shorten(why));
    }

    static Answer parse(int exitCode, String output) {
      int newline = output.lastIndexOf('\n');
      String code = newline < 0 ? output : output.substring(newline + 1);
      String body = newline < 0 ? "" : output.substring(0, newline);
      int status = code.trim().matches("\\d{3}") ? Integer.parseInt(code.trim()) : 0;
      return new Answer(exitCode, status, body);
    }

    private static String tlsReason(String why) {
      for (String known :
          List.of(
              "certificate required",
              "bad certificate",
              "unknown ca",
              "handshake failure",
              "certificate unknown")) {
        if (why.toLowerCase(java.util.Locale.ROOT).contains(known)) {
          return known;
        }
      }
      return shorten(why);
    }

    private static String shorten(String text) {
      return text.length() > 48 ? text.substring(0, 48) + "…" : text;
    }
  }

  /** The second local user's attempt, {@code certificate} naming the self-signed pair's files. */
  public Answer asStranger(Attempt attempt, StrangerCertificate certificate) {
    List<String> args = new ArrayList<>(reach.strangerArgs());
    args.addAll(request);
    switch (attempt) {
      case NO_CREDENTIALS -> {}
      case BOGUS_TOKEN -> args.addAll(List.of("-H", "Authorization: Bearer x"));
      case SELF_SIGNED_CERTIFICATE ->
          args.addAll(
              List.of(
                  "--cert",
                  certificate.certificate().toString(),
                  "--key",
                  certificate.key().toString()));
    }
    Stranger.Result result = Stranger.curl(reach.strangerUrl(path), args.toArray(String[]::new));
    return Answer.parse(result.exitCode(), result.output());
  }

  /** The run's own credentials on the same socket: the control, which must read. */
  public Answer asOwner() {
    if (ownControl != null) {
      try {
        return ownControl.call();
      } catch (Exception e) {
        return new Answer(-1, 0, "control failed: " + e);
      }
    }
    List<String> command = new ArrayList<>(reach.ownPrefix());
    command.addAll(List.of("curl", "-sS", "-k", "--max-time", "5", "-w", "\n%{http_code}"));
    command.addAll(reach.ownArgs());
    command.addAll(request);
    command.addAll(ownCredentials);
    command.add(reach.ownUrl(path));
    try {
      Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
      process.getOutputStream().close();
      String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      process.waitFor(30, TimeUnit.SECONDS);
      return Answer.parse(process.exitValue(), output);
    } catch (IOException e) {
      return new Answer(-1, 0, "cannot run curl: " + e.getMessage());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return new Answer(-1, 0, "interrupted");
    }
  }

  /** A self-signed certificate and its key, in files the second user can read. */
  public record StrangerCertificate(java.nio.file.Path certificate, java.nio.file.Path key) {}
}
