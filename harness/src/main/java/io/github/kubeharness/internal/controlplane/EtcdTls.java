package io.github.kubeharness.internal.controlplane;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What makes etcd answer only its own kube-apiserver and kube-harness: TLS with client
 * certificates, from a CA of the run that signs nothing else.
 *
 * <p>etcd has no authorization of its own once a client is in: anyone who can read its keys is
 * cluster-admin and reads every Secret. Plain HTTP on loopback lets every local user, and every
 * container on the host's network, do that. A CA of its own, as kubeadm's {@code etcd/ca}, because
 * the run's main CA also signs the users a test adds with limited rights: a certificate it signs
 * must never open etcd.
 *
 * <p>Used wherever etcd listens on a port: the container backend's etcd (clients and peer), every
 * etcd's peer port, and a local etcd whose socket path would be too long. A local etcd's clients
 * otherwise use a Unix socket in the owner-only run directory ({@code internal.backend.Etcd}):
 * kube-apiserver opens ~70 connections to etcd at start, and their handshakes cost a start ~140 ms
 * (docs/security.md).
 */
public final class EtcdTls {

  /** File names as etcd's and kube-apiserver's flags name them, relative to their directory. */
  public static final String CA = "etcd-ca.crt";

  static final String SERVER_CERT = "etcd-server.crt";
  static final String SERVER_KEY = "etcd-server.key";
  public static final String CLIENT_CERT = "etcd-client.crt";
  public static final String CLIENT_KEY = "etcd-client.key";

  /** The name the client certificate carries (kube-apiserver's, and the harness's probes'). */
  static final String CLIENT_NAME = "kube-apiserver-etcd-client";

  private final TinyCa ca;
  private final TinyCa.Issued server;
  private final TinyCa.Issued client;

  private EtcdTls(TinyCa ca, TinyCa.Issued server, TinyCa.Issued client) {
    this.ca = ca;
    this.server = server;
    this.client = client;
  }

  /**
   * A fresh CA, etcd's certificate for 127.0.0.1, localhost and {@code etcd} (its name on a
   * container network; the host reaches a published port on 127.0.0.1), and the one client
   * certificate etcd will accept.
   */
  public static EtcdTls create() {
    TinyCa ca = TinyCa.create("kube-harness-etcd-ca");
    return new EtcdTls(
        ca,
        ca.issuePeer("kube-harness-etcd", List.of("127.0.0.1"), List.of("localhost", "etcd")),
        ca.issueClient(CLIENT_NAME, List.of()));
  }

  TinyCa ca() {
    return ca;
  }

  /** The client certificate and key: kube-apiserver's, and the readiness probes'. */
  TinyCa.Issued client() {
    return client;
  }

  /** What etcd reads: the CA it trusts for clients and peers, and its own certificate and key. */
  public Map<String, String> serverFiles() {
    Map<String, String> files = new LinkedHashMap<>();
    files.put(CA, ca.certificatePem());
    files.put(SERVER_CERT, server.certificatePem());
    files.put(SERVER_KEY, server.privateKeyPem());
    return files;
  }

  /** What kube-apiserver reads: the CA etcd's certificate comes from, its client certificate. */
  Map<String, String> clientFiles() {
    Map<String, String> files = new LinkedHashMap<>();
    files.put(CA, ca.certificatePem());
    files.put(CLIENT_CERT, client.certificatePem());
    files.put(CLIENT_KEY, client.privateKeyPem());
    return files;
  }

  /**
   * etcd's TLS flags: clients and peers must present a certificate of this CA; {@code directory}
   * holds {@link #serverFiles()} as etcd sees it.
   */
  public static List<String> serverFlags(String directory) {
    String dir = directory.endsWith("/") ? directory : directory + "/";
    return List.of(
        "--client-cert-auth=true",
        "--trusted-ca-file=" + dir + CA,
        "--cert-file=" + dir + SERVER_CERT,
        "--key-file=" + dir + SERVER_KEY,
        "--peer-client-cert-auth=true",
        "--peer-trusted-ca-file=" + dir + CA,
        "--peer-cert-file=" + dir + SERVER_CERT,
        "--peer-key-file=" + dir + SERVER_KEY);
  }
}
