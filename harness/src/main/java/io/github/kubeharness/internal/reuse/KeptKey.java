package io.github.kubeharness.internal.reuse;

import io.github.kubeharness.BackendOptions;
import io.github.kubeharness.ControlPlaneOptions;
import io.github.kubeharness.Profile;
import io.github.kubeharness.internal.provision.Binaries;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * The name of a kept control plane's directory: a digest of everything that makes two control
 * planes different, so that a control plane of other binaries or flags is never attached to.
 */
final class KeptKey {

  private KeptKey() {}

  // Everything that makes two control planes different; the paths, sizes and modification times
  // of the binaries stand for their content (hashing 200 MB on every start would cost a second).
  static String of(ControlPlaneOptions options, BackendOptions.Local local, Binaries binaries) {
    List<String> parts = new ArrayList<>();
    // v2: etcd behind TLS client certificates; v3: kube-apiserver presents a client certificate
    // to admission webhooks. A control plane an older kube-harness kept (plain etcd, or no webhook
    // client certificate, whose calls the webhook server would refuse) is never attached to, and
    // stops by its idle timeout.
    parts.add("v3");
    parts.add(options.kubernetesVersion());
    parts.add(options.profile().name());
    parts.add(String.valueOf(options.auditLog()));
    parts.add(String.join(" ", options.extraApiServerFlags()));
    parts.add(local.simulatedNodes() + "/" + local.podStartDelay().toMillis());
    if (options.profile() == Profile.SIMULATED) {
      // Its default StorageClass: a JVM naming another would add a second default to a kept one.
      parts.add(local.defaultStorageClass().orElse("none"));
    }
    Stream.of(
            Optional.of(binaries.etcd()),
            Optional.of(binaries.kubeApiServer()),
            binaries.kubeControllerManager(),
            binaries.kubeScheduler())
        .flatMap(Optional::stream)
        .forEach(b -> parts.add(fingerprint(b)));
    try {
      byte[] digest =
          MessageDigest.getInstance("SHA-256")
              .digest(String.join("\n", parts).getBytes(StandardCharsets.UTF_8));
      // Short: etcd's socket lives below it, and a socket's path must stay under ~104 bytes
      // (state.properties names the version and profile).
      return HexFormat.of().formatHex(digest, 0, 6);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }

  private static String fingerprint(Path binary) {
    try {
      Path real = binary.toRealPath();
      return real + ":" + Files.size(real) + ":" + Files.getLastModifiedTime(real).toMillis();
    } catch (IOException e) {
      return binary.toString();
    }
  }
}
