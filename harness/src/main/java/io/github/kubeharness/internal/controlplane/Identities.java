package io.github.kubeharness.internal.controlplane;

import io.github.kubeharness.KubeHarnessException;
import io.github.kubeharness.KubeUser;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Client identities of a control plane whose CA kube-harness holds (local and container backends):
 * a kubeconfig per user, with a client certificate whose common name is the user and whose
 * organizations are the groups.
 */
public final class Identities {

  private static final String CONTEXT = "kube-harness";

  private final TinyCa ca;

  public Identities(TinyCa ca) {
    this.ca = ca;
  }

  /** A kubeconfig for {@code user} in {@code groups} against {@code server}. */
  public String kubeconfig(String server, String user, List<String> groups) {
    TinyCa.Issued cert = ca.issueClient(user, groups);
    return Kubeconfig.render(
        CONTEXT, server, ca.certificatePem(), cert.certificatePem(), cert.privateKeyPem());
  }

  /** A new user, its kubeconfig also written to {@code usersDirectory} (what addUser returns). */
  public KubeUser user(String server, String name, List<String> groups, Path usersDirectory) {
    String config = kubeconfig(server, name, groups);
    Path file =
        write(
            usersDirectory.resolve(name.replaceAll("[^A-Za-z0-9_.-]", "_") + ".kubeconfig"),
            config);
    return new KubeUser(name, List.copyOf(groups), config, file);
  }

  /** Writes a file, failing with the path in the message. */
  public static Path write(Path file, String content) {
    try {
      Files.writeString(file, content);
      return file;
    } catch (IOException e) {
      throw new KubeHarnessException("Cannot write " + file + ": " + e, e);
    }
  }
}
