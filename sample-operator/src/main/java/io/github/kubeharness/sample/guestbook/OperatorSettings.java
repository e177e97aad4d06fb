package io.github.kubeharness.sample.guestbook;

import java.net.InetSocketAddress;
import java.util.Arrays;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * How the operator runs, from command-line flags (kubebuilder's names) and environment variables; a
 * flag wins over its variable.
 *
 * <pre>
 * --health-probe-bind-address=[host]:port  HEALTH_PROBE_BIND_ADDRESS  default :8081 (all interfaces)
 * --leader-elect[=true|false]              LEADER_ELECT               default: true when POD_NAMESPACE is set
 * --leader-election-namespace=ns           POD_NAMESPACE              where the Lease lives
 * --namespaces=a,b                         WATCH_NAMESPACE            default: all namespaces
 * --webhook-bind-address=[host]:port       WEBHOOK_BIND_ADDRESS       default: no webhook server
 * --webhook-service=name                   WEBHOOK_SERVICE            default guestbook-webhook-service
 * </pre>
 *
 * With a webhook address the operator serves its admission and conversion webhooks there over
 * HTTPS, with a certificate kept in the Secret {@value #WEBHOOK_SECRET} of POD_NAMESPACE (made on
 * first start, valid for the Service's DNS names and the address's IP) whose CA it writes into the
 * deployed webhook configurations and the CRD.
 *
 * <p>When deployed, POD_NAMESPACE comes from the downward API, so leader election is on there and
 * off for {@code make run}.
 *
 * @param probeAddress where /healthz and /readyz are served
 * @param leaderElection whether to elect a leader before reconciling
 * @param leaseNamespace namespace of the leader-election Lease (null when not electing)
 * @param namespaces namespaces to watch; empty means all
 * @param webhookAddress where to serve the webhooks; null for none
 * @param webhookService the Service in front of them, for the certificate's DNS names
 * @param podNamespace the operator's namespace (POD_NAMESPACE), where the certificate's Secret is
 */
public record OperatorSettings(
    InetSocketAddress probeAddress,
    boolean leaderElection,
    String leaseNamespace,
    Set<String> namespaces,
    InetSocketAddress webhookAddress,
    String webhookService,
    String podNamespace) {

  /** The Secret holding the webhook server's certificate. */
  public static final String WEBHOOK_SECRET = "guestbook-webhook-server-cert";

  /** Settings without webhooks (what tests that start the operator in-process use). */
  public OperatorSettings(
      InetSocketAddress probeAddress,
      boolean leaderElection,
      String leaseNamespace,
      Set<String> namespaces) {
    this(probeAddress, leaderElection, leaseNamespace, namespaces, null, null, null);
  }

  static final String USAGE =
      "Usage: guestbook-operator [--health-probe-bind-address=[host]:port] [--leader-elect[=bool]]"
          + " [--leader-election-namespace=ns] [--namespaces=a,b] [--webhook-bind-address=[host]:port]"
          + " [--webhook-service=name]";

  /** Reads the flags and the environment; throws IllegalArgumentException naming a bad value. */
  public static OperatorSettings parse(String[] args, Map<String, String> env) {
    String probe = env.getOrDefault("HEALTH_PROBE_BIND_ADDRESS", ":8081");
    String leaseNamespace = blankToNull(env.get("POD_NAMESPACE"));
    String elect = env.get("LEADER_ELECT");
    String namespaces = env.getOrDefault("WATCH_NAMESPACE", "");
    String webhook = blankToNull(env.get("WEBHOOK_BIND_ADDRESS"));
    String webhookService = env.getOrDefault("WEBHOOK_SERVICE", "guestbook-webhook-service");
    String podNamespace = blankToNull(env.get("POD_NAMESPACE"));
    for (String arg : args) {
      String name = arg.contains("=") ? arg.substring(0, arg.indexOf('=')) : arg;
      String value = arg.contains("=") ? arg.substring(arg.indexOf('=') + 1) : null;
      switch (name) {
        case "--health-probe-bind-address" -> probe = required(name, value);
        case "--leader-elect" -> elect = value == null ? "true" : value;
        case "--leader-election-namespace" -> leaseNamespace = required(name, value);
        case "--namespaces" -> namespaces = required(name, value);
        case "--webhook-bind-address" -> webhook = required(name, value);
        case "--webhook-service" -> webhookService = required(name, value);
        default -> throw new IllegalArgumentException("Unknown argument '" + arg + "'. " + USAGE);
      }
    }
    boolean leaderElection =
        elect == null ? leaseNamespace != null : parseBoolean("--leader-elect", elect);
    if (leaderElection && leaseNamespace == null) {
      throw new IllegalArgumentException(
          "Leader election needs a namespace for its Lease: set --leader-election-namespace or"
              + " POD_NAMESPACE, or turn it off with --leader-elect=false.");
    }
    if (webhook != null && podNamespace == null) {
      throw new IllegalArgumentException(
          "The webhook server keeps its certificate in a Secret of the operator's namespace: set"
              + " POD_NAMESPACE (the Deployment does, from the downward API), or drop"
              + " --webhook-bind-address.");
    }
    return new OperatorSettings(
        address(probe, "health probe"),
        leaderElection,
        leaderElection ? leaseNamespace : null,
        Arrays.stream(namespaces.split(","))
            .map(String::trim)
            .filter(s -> !s.isEmpty())
            .collect(Collectors.toUnmodifiableSet()),
        webhook == null ? null : address(webhook, "webhook"),
        webhookService,
        podNamespace);
  }

  private static InetSocketAddress address(String value, String what) {
    int colon = value.lastIndexOf(':');
    try {
      int port = Integer.parseInt(value.substring(colon + 1));
      String host = colon <= 0 ? "" : value.substring(0, colon);
      return host.isEmpty() ? new InetSocketAddress(port) : new InetSocketAddress(host, port);
    } catch (IllegalArgumentException | IndexOutOfBoundsException e) {
      throw new IllegalArgumentException(
          "Invalid " + what + " address '" + value + "': expected [host]:port, e.g. :8081", e);
    }
  }

  private static boolean parseBoolean(String flag, String value) {
    return switch (value) {
      case "true" -> true;
      case "false" -> false;
      default ->
          throw new IllegalArgumentException(flag + " takes true or false, not '" + value + "'");
    };
  }

  private static String required(String flag, String value) {
    if (value == null || value.isBlank()) {
      throw new IllegalArgumentException(flag + " needs a value: " + flag + "=... . " + USAGE);
    }
    return value;
  }

  private static String blankToNull(String value) {
    return value == null || value.isBlank() ? null : value;
  }
}
