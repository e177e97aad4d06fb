package io.github.kubeharness.internal.provision;

import io.fabric8.kubernetes.client.utils.Serialization;
import io.github.kubeharness.KubeHarnessException;
import io.github.kubeharness.internal.process.LogTail;
import io.github.kubeharness.internal.process.Watchdog;
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
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

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

  private static final Pattern LOCAL_REPLACE =
      Pattern.compile("^\\s*(?:replace\\s+)?(\\S+)\\s+=>\\s+\\.{1,2}/\\S+\\s*$", Pattern.MULTILINE);
  private static final Pattern ETCD_SERVER =
      Pattern.compile("go\\.etcd\\.io/etcd/server/v3\\s+v(\\S+)");
  private static final Pattern GO_DIRECTIVE = Pattern.compile("^go\\s+(\\S+)", Pattern.MULTILINE);
  private static final Duration HEARTBEAT = Duration.ofSeconds(30);

  private final String go;
  private final Path workRoot;
  private final Consumer<String> progress;
  private final Path log;
  // GOTOOLCHAIN for a version whose go.mod needs a newer Go than the local one; empty otherwise.
  private Map<String, String> goEnvironment = Map.of();

  /**
   * @param go the Go command: {@code go} (found on the PATH) or a path to the executable
   * @param workRoot persistent directory for the build modules (kept between runs so go.sum and
   *     module resolution are reused; Go's own caches live under GOMODCACHE and GOCACHE)
   */
  SourceBuild(String go, Path workRoot, Consumer<String> progress) {
    this.go = go;
    this.workRoot = workRoot;
    this.progress = progress;
    this.log = workRoot.resolve("build.log");
  }

  /** Builds the requested components of Kubernetes {@code version} into {@code outputDir}. */
  Map<Component, Path> build(String version, Set<Component> components, Path outputDir) {
    try {
      Files.createDirectories(workRoot);
      Files.createDirectories(outputDir);
    } catch (IOException e) {
      throw new KubeHarnessException("Cannot create the build directory " + workRoot + ": " + e, e);
    }
    Go local =
        requireGo(
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
            + log);
    Instant started = Instant.now();
    Map<Component, Path> built = new EnumMap<>(Component.class);
    String kubernetesGoMod = readGoMod("k8s.io/kubernetes", "v" + version);
    goEnvironment =
        toolchainFor(goDirective(kubernetesGoMod), goVersion, System.getenv("GOTOOLCHAIN"))
            .map(
                toolchain -> {
                  progress.accept(
                      "Kubernetes v"
                          + version
                          + " needs Go "
                          + goDirective(kubernetesGoMod)
                          + ", newer than "
                          + goVersion
                          + ": building with GOTOOLCHAIN="
                          + toolchain
                          + " (the go command fetches that toolchain from GOPROXY, once)");
                  return Map.of("GOTOOLCHAIN", toolchain);
                })
            .orElse(Map.of());

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
      run(module, get, "resolving Kubernetes v" + version + " modules");
      for (Component c : kubernetesParts) {
        built.put(
            c,
            goBuild(
                module,
                kubernetesLdflags(version),
                outputDir.resolve(c.fileName()),
                kubernetesPackage(c),
                "compiling " + c.fileName()));
      }
    }
    if (components.contains(Component.ETCD)) {
      String etcdVersion = etcdVersion(kubernetesGoMod, version);
      Path module = etcdModule(etcdVersion);
      run(
          module,
          List.of(go, "get", "go.etcd.io/etcd/server/v3@v" + etcdVersion),
          "resolving etcd v" + etcdVersion);
      Path out =
          goBuild(
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
    Go local =
        requireGo(
            pkg + " " + version + " is needed and cannot be built",
            "Install Go (1.26 or newer), or put the tool on the PATH.");
    run(
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
  private Path goBuild(Path module, String ldflags, Path out, String pkg, String what) {
    run(
        module,
        List.of(go, "build", "-trimpath", "-ldflags", ldflags, "-o", out.toString(), pkg),
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

  private Path etcdModule(String etcdVersion) {
    // etcd's modules point at each other by relative path, like Kubernetes' staging modules.
    return writeModule(
        "etcd-v" + etcdVersion,
        "etcd",
        readGoMod("go.etcd.io/etcd/server/v3", "v" + etcdVersion),
        "go.etcd.io/etcd/server/v3 v" + etcdVersion,
        "v" + etcdVersion);
  }

  /**
   * A module that requires {@code requirement} and replaces each module the upstream go.mod
   * replaces by a relative path with its published {@code replacedVersion}.
   */
  private Path writeModule(
      String name, String what, String upstreamGoMod, String requirement, String replacedVersion) {
    StringBuilder goMod = new StringBuilder();
    goMod
        .append("// Generated by kube-harness to build ")
        .append(what)
        .append("; safe to delete.\n");
    goMod.append("module kubeharness.local/").append(name.replaceFirst("-v.*", "")).append("\n\n");
    goMod.append("go ").append(goDirective(upstreamGoMod)).append("\n\n");
    goMod.append("require ").append(requirement).append("\n\n");
    for (String module : localReplacements(upstreamGoMod)) {
      goMod.append("replace ").append(module).append(" => ").append(module).append(' ');
      goMod.append(replacedVersion).append('\n');
    }
    return writeModule(name, goMod.toString());
  }

  /**
   * The modules {@code goMod} replaces by local paths: the ones a build from the proxy must pin to
   * the release. A replacement by {@code ./FORBIDDEN_DEPENDENCY} (etcd 3.6 marks modules that must
   * never enter its build so) is none of them: it needs no version, and pinning {@code
   * go.etcd.io/etcd} to v3.x is not even valid Go.
   */
  static List<String> localReplacements(String goMod) {
    List<String> modules = new ArrayList<>();
    Matcher m = LOCAL_REPLACE.matcher(goMod);
    while (m.find()) {
      if (!m.group(0).contains("FORBIDDEN_DEPENDENCY")) {
        modules.add(m.group(1));
      }
    }
    return modules;
  }

  static String etcdVersion(String kubernetesGoMod, String kubernetesVersion) {
    Matcher m = ETCD_SERVER.matcher(kubernetesGoMod);
    if (!m.find()) {
      throw new KubeHarnessException(
          "The go.mod of Kubernetes v"
              + kubernetesVersion
              + " does not name go.etcd.io/etcd/server/v3, so the etcd version to build is"
              + " unknown. Provide etcd through KUBEBUILDER_ASSETS or TEST_ASSET_ETCD.");
    }
    return m.group(1);
  }

  /**
   * The {@code GOTOOLCHAIN} a module needing Go {@code required} builds with, when the local {@code
   * goVersion} ({@code go1.26.8}) is older: the user's own {@code GOTOOLCHAIN} when it names a
   * version, else {@code go<required>}. Empty when the local Go will do.
   */
  static Optional<String> toolchainFor(String required, String goVersion, String userToolchain) {
    if (compareGo(goVersion.replaceFirst("^go", ""), required) >= 0) {
      return Optional.empty();
    }
    if (userToolchain != null && userToolchain.trim().matches("go\\d+\\.\\d+.*")) {
      return Optional.of(userToolchain.trim().replaceFirst("\\+.*$", ""));
    }
    return Optional.of("go" + required);
  }

  /** Compares Go versions such as {@code 1.26.8}, {@code 1.25} and {@code 1.27rc1}, numerically. */
  static int compareGo(String a, String b) {
    String[] x = a.split("[^0-9]+");
    String[] y = b.split("[^0-9]+");
    for (int i = 0; i < Math.max(x.length, y.length); i++) {
      int xi = i < x.length && !x[i].isEmpty() ? Integer.parseInt(x[i]) : 0;
      int yi = i < y.length && !y[i].isEmpty() ? Integer.parseInt(y[i]) : 0;
      if (xi != yi) {
        return Integer.compare(xi, yi);
      }
    }
    return 0;
  }

  private static String goDirective(String goMod) {
    Matcher m = GO_DIRECTIVE.matcher(goMod);
    return m.find() ? m.group(1) : "1.22";
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

  private String readGoMod(String module, String version) {
    String json;
    try {
      json =
          run(
              workRoot,
              List.of(go, "mod", "download", "-json", module + "@" + version),
              "downloading " + module + "@" + version);
    } catch (KubeHarnessException e) {
      throw unknownVersion(module, version).orElse(e);
    }
    String goMod = goModPath(json);
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
    return Optional.of(new KubeHarnessException(versionNotServed(module, version, served)));
  }

  /** The versions of {@code module} the Go module proxy serves, oldest first ({@code v1.36.3}). */
  List<String> listVersions(String module) {
    try {
      Files.createDirectories(workRoot);
    } catch (IOException e) {
      throw new KubeHarnessException("Cannot create the build directory " + workRoot + ": " + e, e);
    }
    return servedVersions(run(workRoot, List.of(go, "list", "-m", "-versions", module), null));
  }

  /** The versions of {@code go list -m -versions}'s output ({@code module v1 v2 ...}). */
  static List<String> servedVersions(String listOutput) {
    String[] words = listOutput.trim().split("\\s+");
    return words.length < 2 ? List.of() : List.of(words).subList(1, words.length);
  }

  static String versionNotServed(String module, String version, List<String> served) {
    String minor = version.replaceFirst("^(v\\d+\\.\\d+)\\..*$", "$1.");
    List<String> sameMinor = served.stream().filter(v -> v.startsWith(minor)).toList();
    return module
        + "@"
        + version
        + " is not served by the Go module proxy (go env GOPROXY): "
        + (sameMinor.isEmpty()
            ? "it serves no " + minor.substring(0, minor.length() - 1) + ".x"
            : "of " + minor.substring(0, minor.length() - 1) + " it serves " + sameMinor)
        + "; its newest release is "
        + served.stream()
            .filter(v -> !v.contains("-"))
            .reduce((a, b) -> b)
            .orElse(served.get(served.size() - 1))
        + ". Set kubeharness.kubernetes.version (or @ControllerTest(kubernetesVersion)) to a"
        + " served version.";
  }

  /** The {@code GoMod} field of {@code go mod download -json}'s output; empty when absent. */
  static String goModPath(String json) {
    try {
      return Serialization.jsonMapper().readTree(json).path("GoMod").asText("");
    } catch (IOException | RuntimeException e) {
      return "";
    }
  }

  /**
   * The local Go: its version ({@code go1.26.8}) and where it fetches modules from ({@code go env
   * GOPROXY}: the environment, else {@code go env -w}, else Go's default).
   */
  record Go(String version, String proxy) {

    /**
     * Where the build's modules come from, for its progress line: kubeharness.offline does not
     * cover the Go build (it is how machines with only a module mirror get binaries), so the line
     * says what it reaches instead.
     */
    String fetching() {
      return proxy.equals("off")
          ? ", GOPROXY=off (modules from the module cache only)"
          : ", fetching modules through GOPROXY=" + proxy;
    }
  }

  /**
   * The local Go, or a failure saying {@code what} cannot be built for want of a working Go and
   * what to do {@code otherwise}.
   */
  private Go requireGo(String what, String otherwise) {
    try {
      List<String> lines =
          run(workRoot, List.of(go, "env", "GOVERSION", "GOPROXY"), null).lines().toList();
      return new Go(
          lines.isEmpty() ? "" : lines.get(0).trim(),
          lines.size() < 2 || lines.get(1).isBlank() ? "(unset)" : lines.get(1).trim());
    } catch (KubeHarnessException e) {
      throw new KubeHarnessException(
          what
              + ": no working Go toolchain (`"
              + go
              + "`"
              + (go.equals("go") ? " on the PATH" : ", from KUBE_HARNESS_GO")
              + ") ("
              + e.getMessage().lines().findFirst().orElse("")
              + "). "
              + otherwise,
          e);
    }
  }

  /** Runs a Go command in {@code dir}, appending output to the build log; returns its stdout. */
  private String run(Path dir, List<String> command, String step) {
    return run(dir, command, step, Map.of());
  }

  private String run(Path dir, List<String> command, String step, Map<String, String> env) {
    Instant start = Instant.now();
    if (step != null) {
      progress.accept(step + " ...");
    }
    Path stdout;
    try {
      stdout = Files.createTempFile(workRoot, "go-", ".out");
    } catch (IOException e) {
      throw new KubeHarnessException("Cannot write into " + workRoot + ": " + e, e);
    }
    try {
      Files.writeString(
          log,
          "\n$ (cd " + dir + " && " + String.join(" ", command) + ")\n",
          java.nio.file.StandardOpenOption.CREATE,
          java.nio.file.StandardOpenOption.APPEND);
      ProcessBuilder builder =
          new ProcessBuilder(command)
              .directory(dir.toFile())
              .redirectOutput(stdout.toFile())
              .redirectError(ProcessBuilder.Redirect.appendTo(log.toFile()));
      builder.environment().put("CGO_ENABLED", "0");
      builder.environment().put("GOFLAGS", "-mod=mod");
      builder.environment().put("GOWORK", "off");
      builder.environment().putAll(goEnvironment);
      builder.environment().putAll(env);
      Process process = builder.start();
      Watchdog.get().watch(process.pid());
      try {
        while (!process.waitFor(HEARTBEAT.toSeconds(), TimeUnit.SECONDS)) {
          if (step != null) {
            progress.accept(
                "  still "
                    + step
                    + " ("
                    + Duration.between(start, Instant.now()).toSeconds()
                    + " s)");
          }
        }
      } catch (InterruptedException e) {
        process.destroyForcibly();
        Thread.currentThread().interrupt();
        throw new KubeHarnessException("Interrupted while " + step, e);
      } finally {
        Watchdog.get().unwatch(process.pid());
      }
      String out = Files.readString(stdout);
      Files.writeString(log, out, java.nio.file.StandardOpenOption.APPEND);
      if (process.exitValue() != 0) {
        throw new KubeHarnessException(
            "`"
                + String.join(" ", command)
                + "` failed with exit code "
                + process.exitValue()
                + " in "
                + dir
                + ".\nLast lines of "
                + log
                + ":\n"
                + LogTail.of(log)
                + "Check GOPROXY (`go env GOPROXY`) and the Go version (the module may need a newer"
                + " one: set GOTOOLCHAIN), or provide the binaries through KUBEBUILDER_ASSETS.");
      }
      return out;
    } catch (IOException e) {
      throw new KubeHarnessException(
          "Cannot run `" + String.join(" ", command) + "`: " + e.getMessage(), e);
    } finally {
      try {
        Files.deleteIfExists(stdout);
      } catch (IOException ignored) {
        // a leftover temp file in the build directory is harmless
      }
    }
  }

  private static String names(Set<Component> components) {
    List<String> names = new ArrayList<>();
    components.forEach(c -> names.add(c.fileName()));
    return String.join(", ", names);
  }
}
