package io.github.kubeharness.internal.provision;

import io.github.kubeharness.KubeHarnessException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;

/**
 * Builds etcd, kube-apiserver and kube-controller-manager from Go modules with the local Go
 * toolchain and its configured {@code GOPROXY}: the path for machines without internet but with a
 * module mirror, which no registry of prebuilt binaries serves.
 *
 * <p>{@code k8s.io/kubernetes} is not meant to be required as a module: it points its ~30 staging
 * modules ({@code k8s.io/api}, {@code k8s.io/apiserver}, ...) at local paths. The build module
 * therefore replaces each of them with its published {@code v0.<minor>.<patch>} twin; the list is
 * read from Kubernetes' own go.mod, never written by hand. etcd is built at the version that go.mod
 * requires, so the pair matches what Kubernetes tests with. Binaries are static ({@code
 * CGO_ENABLED=0}) and stamped with the version, so {@code /version} tells the truth.
 */
final class SourceBuild {

  private final GoCommand goCommand;
  private final String go;
  private final Path workRoot;
  private final Consumer<String> progress;

  /**
   * @param go the Go command: {@code go} (found on the PATH) or a path to the executable
   * @param workRoot persistent directory for the build modules (kept between runs so go.sum and
   *     module resolution are reused; Go's own caches live under GOMODCACHE and GOCACHE)
   */
  SourceBuild(String go, Path workRoot, Consumer<String> progress) {
    this.goCommand = new GoCommand(go, workRoot, progress);
    this.go = go;
    this.workRoot = workRoot;
    this.progress = progress;
  }

  /** Builds the requested components of Kubernetes {@code version} into {@code outputDir}. */
  Map<Component, Path> build(String version, Set<Component> components, Path outputDir) {
    try {
      Files.createDirectories(workRoot);
      Files.createDirectories(outputDir);
    } catch (IOException e) {
      throw new KubeHarnessException("Cannot create the build directory " + workRoot + ": " + e, e);
    }
    GoCommand.Go local =
        goCommand.requireGo(
            "Kubernetes v" + version + " binaries are not provisioned and cannot be built",
            "Either install Go (1.26 or newer) and rerun, or set KUBEBUILDER_ASSETS to a"
                + " directory holding etcd and kube-apiserver (and kube-controller-manager for the"
                + " standard profile), or allow the envtest download (unset kubeharness.offline /"
                + " KUBE_HARNESS_OFFLINE).");
    String goVersion = local.version();
    progress.accept(
        "building "
            + names(components)
            + " v"
            + version
            + " from Go modules with "
            + goVersion
            + local.fetching()
            + ". This happens once per version and takes several minutes (about 5 for"
            + " kube-apiserver on 2 cores); the result is cached. Build log: "
            + goCommand.log());
    Instant started = Instant.now();
    Map<Component, Path> built = new EnumMap<>(Component.class);
    String kubernetesGoMod = readGoMod(goCommand, "k8s.io/kubernetes", "v" + version);
    GoCommand command = goCommand.withEnvironment(toolchain(kubernetesGoMod, version, goVersion));

    List<Component> kubernetesParts = new ArrayList<>();
    for (Component c : components) {
      if (c != Component.ETCD) {
        kubernetesParts.add(c);
      }
    }
    if (!kubernetesParts.isEmpty()) {
      Path module = kubernetesModule(version, kubernetesGoMod);
      List<String> get = new ArrayList<>(List.of(go, "get"));
      kubernetesParts.forEach(c -> get.add(kubernetesPackage(c) + "@v" + version));
      command.run(module, get, "resolving Kubernetes v" + version + " modules");
      for (Component c : kubernetesParts) {
        built.put(
            c,
            goBuild(
                command,
                module,
                kubernetesLdflags(version),
                outputDir.resolve(c.fileName()),
                kubernetesPackage(c),
                "compiling " + c.fileName()));
      }
    }
    if (components.contains(Component.ETCD)) {
      String etcdVersion = GoModFiles.etcdVersion(kubernetesGoMod, version);
      Path module = etcdModule(command, etcdVersion);
      command.run(
          module,
          List.of(go, "get", "go.etcd.io/etcd/server/v3@v" + etcdVersion),
          "resolving etcd v" + etcdVersion);
      Path out =
          goBuild(
              command,
              module,
              "-s -w",
              outputDir.resolve(Component.ETCD.fileName()),
              "go.etcd.io/etcd/server/v3",
              "compiling etcd v" + etcdVersion);
      built.put(Component.ETCD, out);
    }
    progress.accept(
        "built "
            + names(components)
            + " in "
            + Duration.between(started, Instant.now()).toSeconds()
            + " s");
    return built;
  }

  /**
   * {@code go install pkg@version} into {@code binDir} (a tool such as kind, built from its module
   * as published); returns the installed executable, named like the package's last element.
   */
  Path goInstall(String pkg, String version, Path binDir) {
    try {
      Files.createDirectories(workRoot);
      Files.createDirectories(binDir);
    } catch (IOException e) {
      throw new KubeHarnessException("Cannot create " + binDir + ": " + e, e);
    }
    GoCommand.Go local =
        goCommand.requireGo(
            pkg + " " + version + " is needed and cannot be built",
            "Install Go (1.26 or newer), or put the tool on the PATH.");
    goCommand.run(
        workRoot,
        List.of(go, "install", "-trimpath", "-ldflags", "-s -w", pkg + "@" + version),
        "building "
            + pkg
            + " "
            + version
            + " from Go modules"
            + local.fetching()
            + " (one to several minutes, once)",
        Map.of("GOBIN", binDir.toAbsolutePath().toString()));
    return binDir.resolve(pkg.substring(pkg.lastIndexOf('/') + 1));
  }

  /**
   * GOTOOLCHAIN for building Kubernetes {@code version} when its go.mod needs a newer Go than the
   * local {@code goVersion}; empty otherwise.
   */
  private Map<String, String> toolchain(String kubernetesGoMod, String version, String goVersion) {
    return GoModFiles.toolchainFor(
            GoModFiles.goDirective(kubernetesGoMod), goVersion, System.getenv("GOTOOLCHAIN"))
        .map(
            toolchain -> {
              progress.accept(
                  "Kubernetes v"
                      + version
                      + " needs Go "
                      + GoModFiles.goDirective(kubernetesGoMod)
                      + ", newer than "
                      + goVersion
                      + ": building with GOTOOLCHAIN="
                      + toolchain
                      + " (the go command fetches that toolchain from GOPROXY, once)");
              return Map.of("GOTOOLCHAIN", toolchain);
            })
        .orElse(Map.of());
  }

  private static String kubernetesPackage(Component c) {
    return "k8s.io/kubernetes/cmd/" + c.fileName();
  }

  private static String kubernetesLdflags(String version) {
    String[] parts = version.split("\\.");
    String pkg = "k8s.io/component-base/version.";
    return String.join(
        " ",
        "-s -w",
        "-X " + pkg + "gitVersion=v" + version,
        "-X " + pkg + "gitMajor=" + parts[0],
        "-X " + pkg + "gitMinor=" + parts[1],
        "-X " + pkg + "gitTreeState=clean",
        "-X "
            + pkg
            + "buildDate="
            + Instant.now().truncatedTo(java.time.temporal.ChronoUnit.SECONDS));
  }

  /** {@code go build} of {@code pkg} in {@code module} into {@code out}, reproducibly. */
  private static Path goBuild(
      GoCommand command, Path module, String ldflags, Path out, String pkg, String what) {
    command.run(
        module,
        List.of(command.go(), "build", "-trimpath", "-ldflags", ldflags, "-o", out.toString(), pkg),
        what);
    return out;
  }

  private Path kubernetesModule(String version, String kubernetesGoMod) {
    String[] parts = version.split("\\.");
    return writeModule(
        "kubernetes-v" + version,
        "Kubernetes binaries",
        kubernetesGoMod,
        "k8s.io/kubernetes v" + version,
        // Kubernetes' staging modules are replaced by relative paths; their published versions
        // are v0.<minor>.<patch>.
        "v0." + parts[1] + "." + parts[2]);
  }

  private Path etcdModule(GoCommand command, String etcdVersion) {
    // etcd's modules point at each other by relative path, like Kubernetes' staging modules.
    return writeModule(
        "etcd-v" + etcdVersion,
        "etcd",
        readGoMod(command, "go.etcd.io/etcd/server/v3", "v" + etcdVersion),
        "go.etcd.io/etcd/server/v3 v" + etcdVersion,
        "v" + etcdVersion);
  }

  private Path writeModule(
      String name, String what, String upstreamGoMod, String requirement, String replacedVersion) {
    return writeModule(
        name, GoModFiles.buildModule(name, what, upstreamGoMod, requirement, replacedVersion));
  }

  private Path writeModule(String name, String goMod) {
    Path dir = workRoot.resolve(name);
    try {
      Files.createDirectories(dir);
      Path file = dir.resolve("go.mod");
      // Keep an existing go.mod that `go get` already completed: rewriting it would throw away
      // the resolved requirements and make every rebuild resolve again.
      if (!Files.exists(file) || !Files.exists(dir.resolve("go.sum"))) {
        Files.writeString(file, goMod);
      }
      return dir;
    } catch (IOException e) {
      throw new KubeHarnessException("Cannot write the build module " + dir + ": " + e, e);
    }
  }

  private String readGoMod(GoCommand command, String module, String version) {
    String json;
    try {
      json =
          command.run(
              workRoot,
              List.of(go, "mod", "download", "-json", module + "@" + version),
              "downloading " + module + "@" + version);
    } catch (KubeHarnessException e) {
      throw unknownVersion(module, version).orElse(e);
    }
    String goMod = GoModFiles.goModPath(json);
    if (goMod.isEmpty()) {
      throw new KubeHarnessException(
          "`go mod download -json "
              + module
              + "@"
              + version
              + "` gave no go.mod path. Output:\n"
              + json
              + "\nCheck that GOPROXY serves "
              + module
              + " (go env GOPROXY).");
    }
    try {
      return Files.readString(Path.of(goMod));
    } catch (IOException e) {
      throw new KubeHarnessException("Cannot read " + goMod + ": " + e, e);
    }
  }

  /**
   * When the module proxy does not serve {@code module@version} at all, an error that says so and
   * lists what it does serve of that minor (a typo'd or not yet published patch is the usual
   * cause); empty when it does, or when the list cannot be had either.
   */
  private Optional<KubeHarnessException> unknownVersion(String module, String version) {
    List<String> served;
    try {
      served = listVersions(module);
    } catch (KubeHarnessException e) {
      return Optional.empty();
    }
    if (served.isEmpty() || served.contains(version)) {
      return Optional.empty();
    }
    return Optional.of(
        new KubeHarnessException(GoModFiles.versionNotServed(module, version, served)));
  }

  /** The versions of {@code module} the Go module proxy serves, oldest first ({@code v1.36.3}). */
  List<String> listVersions(String module) {
    try {
      Files.createDirectories(workRoot);
    } catch (IOException e) {
      throw new KubeHarnessException("Cannot create the build directory " + workRoot + ": " + e, e);
    }
    return GoModFiles.servedVersions(
        goCommand.run(workRoot, List.of(go, "list", "-m", "-versions", module), null));
  }

  private static String names(Set<Component> components) {
    List<String> names = new ArrayList<>();
    components.forEach(c -> names.add(c.fileName()));
    return String.join(", ", names);
  }
}
