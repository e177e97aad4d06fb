package io.github.kubeharness;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.kubeharness.internal.controlplane.PemKeys;
import io.github.kubeharness.internal.controlplane.TlsStores;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManager;

/**
 * What the run's own etcd credentials get, for the positive controls of the etcd refusal checks:
 * the certificate and key etcd itself presents to its peers (issued by the run's etcd CA for both
 * serving and client use), read as root from the running process ({@code /proc/<pid>/cmdline} for
 * its flags, {@code /proc/<pid>/root} for the files, so a container's etcd reads the same way).
 */
public final class EtcdAccess {

  /** TLS alerts Java reports as "Received fatal alert: bad_certificate". */
  private static final Pattern JAVA_ALERT = Pattern.compile("Received fatal alert: (\\w+)");

  private final long pid;
  private final Path certificate;
  private final Path key;

  private EtcdAccess(long pid, Path certificate, Path key) {
    this.pid = pid;
    this.certificate = certificate;
    this.key = key;
  }

  /** The credentials of the etcd process {@code pid} (on the host or in a container). */
  public static EtcdAccess of(long pid) {
    List<String> arguments = arguments(pid);
    return new EtcdAccess(
        pid, file(pid, arguments, "--peer-cert-file"), file(pid, arguments, "--peer-key-file"));
  }

  /**
   * The etcd process that itself listens on {@code port} in this network namespace (a local etcd,
   * or a container's on the host's network); fails naming what listens there otherwise.
   */
  public static EtcdAccess listeningOn(int port) {
    List<Long> etcds;
    try (var processes = Files.list(Path.of("/proc"))) {
      etcds =
          processes
              .map(p -> p.getFileName().toString())
              .filter(name -> name.chars().allMatch(Character::isDigit))
              .map(Long::parseLong)
              .filter(pid -> isEtcd(pid))
              .toList();
    } catch (IOException e) {
      throw new IllegalStateException("Cannot list /proc: " + e, e);
    }
    for (long pid : etcds) {
      try {
        if (Lockdown.listeningPorts(pid).contains(port)) {
          return of(pid);
        }
      } catch (IOException e) {
        // gone meanwhile
      }
    }
    throw new AssertionError(
        "no etcd process itself listens on port " + port + " (of " + etcds + ")");
  }

  private static boolean isEtcd(long pid) {
    try {
      String command = arguments(pid).get(0);
      return command.equals("etcd") || command.endsWith("/etcd");
    } catch (RuntimeException e) {
      return false; // gone meanwhile, or not ours to read
    }
  }

  /**
   * The range request {@code body} sent to 127.0.0.1:{@code port} with these credentials: etcd
   * accepts the TLS handshake and answers over HTTP. Its client port answers the range with 200 and
   * the keys; its peer port serves no client API and answers 404.
   */
  public HttpResponse<String> post(int port, String path, String body) throws Exception {
    SSLContext tls = SSLContext.getInstance("TLS");
    tls.init(
        TlsStores.presenting(
                PemKeys.privateKey(Files.readString(key)).orElseThrow(),
                PemKeys.certificates(Files.readString(certificate)))
            .getKeyManagers(),
        new TrustManager[] {TlsStores.anyServer()},
        null);
    HttpClient client =
        HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).sslContext(tls).build();
    return client.send(
        HttpRequest.newBuilder(URI.create("https://127.0.0.1:" + port + path))
            .timeout(Duration.ofSeconds(5))
            .POST(HttpRequest.BodyPublishers.ofString(body))
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }

  /** {@code curl} as this JVM's user with these credentials: the owner's side of a curl probe. */
  public Stranger.Result curl(String url, String... extra) {
    List<String> withCredentials =
        new ArrayList<>(List.of("--cert", certificate.toString(), "--key", key.toString()));
    withCredentials.addAll(List.of(extra));
    return ownerCurl(url, withCredentials.toArray(String[]::new));
  }

  /**
   * {@code curl} as this JVM's user, with the flags {@link Stranger#curl} gives the second user's:
   * the same probe, by the owner.
   */
  public static Stranger.Result ownerCurl(String url, String... extra) {
    List<String> command = new ArrayList<>(List.of("curl", "-sS", "-k", "--max-time", "5"));
    command.addAll(List.of("-w", "\n%{http_code}"));
    command.addAll(List.of(extra));
    command.add(url);
    return Owner.run(command);
  }

  /** The pid these credentials were read from. */
  public long pid() {
    return pid;
  }

  /**
   * The TLS alert a refused Java client got, from the failure's chain ({@code bad_certificate},
   * {@code certificate_required}, {@code unknown_ca}), or empty: then the failure was something
   * else (a reset, a timeout, a refused connection), which is no proof of a refusal.
   */
  public static Optional<String> tlsAlert(Throwable failure) {
    for (Throwable t = failure; t != null; t = t.getCause()) {
      Matcher alert = JAVA_ALERT.matcher(String.valueOf(t.getMessage()));
      if (alert.find()) {
        return Optional.of(alert.group(1));
      }
    }
    return Optional.empty();
  }

  private static List<String> arguments(long pid) {
    try {
      String cmdline = Files.readString(Path.of("/proc", Long.toString(pid), "cmdline"));
      return List.of(cmdline.split("\0"));
    } catch (IOException e) {
      throw new IllegalStateException("Cannot read the command line of process " + pid, e);
    }
  }

  private static Path file(long pid, List<String> arguments, String flag) {
    String value =
        arguments.stream()
            .filter(a -> a.startsWith(flag + "="))
            .map(a -> a.substring(flag.length() + 1))
            .findFirst()
            .orElseThrow(() -> new AssertionError("no " + flag + " in " + arguments));
    // Through the process's own root: a container's path, read from the host.
    return Path.of("/proc", Long.toString(pid), "root").resolve(value.replaceFirst("^/", ""));
  }

  /** Runs a command as this JVM's user, output and exit code as the second user's would be. */
  private static final class Owner {
    static Stranger.Result run(List<String> command) {
      try {
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        process.getOutputStream().close();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(60, TimeUnit.SECONDS)).as("%s: finished", command).isTrue();
        return new Stranger.Result(process.exitValue(), output);
      } catch (IOException e) {
        throw new IllegalStateException("Cannot run " + command + ": " + e, e);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException(e);
      }
    }
  }
}
