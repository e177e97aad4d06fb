package io.github.kubeharness.internal.provision;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.kubeharness.KubeHarnessException;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The go.mod reading of {@link SourceBuild} ({@link GoModFiles}), which decides what the build
 * module replaces.
 */
class SourceBuildTest {

  // Shaped like k8s.io/kubernetes' go.mod: staging modules replaced by relative paths in a block,
  // plus the single-line form, a non-local replace and requirements that must not be picked up.
  private static final String KUBERNETES_GO_MOD =
      """
      // This is a generated file. Do not edit directly.

      module k8s.io/kubernetes

      go 1.26.0

      require (
      \tgithub.com/spf13/cobra v1.10.1
      \tgo.etcd.io/etcd/client/v3 v3.7.0
      \tk8s.io/api v0.0.0
      \tk8s.io/apiserver v0.0.0
      )

      require (
      \tgo.etcd.io/etcd/server/v3 v3.7.0 // indirect
      \tk8s.io/kms v0.0.0 // indirect
      )

      replace (
      \tk8s.io/api => ./staging/src/k8s.io/api
      \tk8s.io/apiserver => ./staging/src/k8s.io/apiserver
      \tk8s.io/kms => ./staging/src/k8s.io/kms
      )

      replace k8s.io/client-go => ./staging/src/k8s.io/client-go

      replace github.com/example/forked => github.com/example/fork v1.2.3

      replace k8s.io/parent-relative => ../elsewhere/parent-relative
      """;

  @Test
  void localReplacementsAreExactlyTheModulesReplacedByRelativePaths() {
    assertThat(GoModFiles.localReplacements(KUBERNETES_GO_MOD))
        .containsExactly(
            "k8s.io/api",
            "k8s.io/apiserver",
            "k8s.io/kms",
            "k8s.io/client-go",
            "k8s.io/parent-relative");
  }

  @Test
  void replacementsThatForbidAModuleNeedNoVersion() {
    String etcdServer =
        """
        module go.etcd.io/etcd/server/v3

        replace (
        	go.etcd.io/etcd/api/v3 => ../api
        	go.etcd.io/etcd/pkg/v3 => ../pkg
        )

        // Bad imports are sometimes causing attempts to pull that code.
        replace go.etcd.io/etcd => ./FORBIDDEN_DEPENDENCY

        replace go.etcd.io/tests/v3 => ./FORBIDDEN_DEPENDENCY
        """;
    assertThat(GoModFiles.localReplacements(etcdServer))
        .containsExactly("go.etcd.io/etcd/api/v3", "go.etcd.io/etcd/pkg/v3");
  }

  @Test
  void localReplacementsToleratesWindowsLineEndings() {
    assertThat(GoModFiles.localReplacements(KUBERNETES_GO_MOD.replace("\n", "\r\n")))
        .containsExactly(
            "k8s.io/api",
            "k8s.io/apiserver",
            "k8s.io/kms",
            "k8s.io/client-go",
            "k8s.io/parent-relative");
  }

  @Test
  void goModWithoutLocalReplacementsHasNone() {
    assertThat(
            GoModFiles.localReplacements(
                "module example.com/m\n\nreplace a.b/c => a.b/d v1.0.0\nrequire a.b/c v1.0.0\n"))
        .isEmpty();
  }

  @Test
  void etcdVersionIsTheServerModuleVersionWithoutItsV() {
    assertThat(GoModFiles.etcdVersion(KUBERNETES_GO_MOD, "1.37.2")).isEqualTo("3.7.0");
  }

  @Test
  void missingEtcdServerModuleIsReportedWithTheAlternatives() {
    String goMod = KUBERNETES_GO_MOD.replace("go.etcd.io/etcd/server/v3 v3.7.0 // indirect\n", "");
    assertThat(goMod).doesNotContain("etcd/server").contains("go.etcd.io/etcd/client/v3");

    assertThatThrownBy(() -> GoModFiles.etcdVersion(goMod, "1.37.2"))
        .isInstanceOf(KubeHarnessException.class)
        .hasMessageContaining("go.mod of Kubernetes v1.37.2")
        .hasMessageContaining("does not name go.etcd.io/etcd/server/v3")
        .hasMessageContaining("etcd version to build is unknown")
        .hasMessageContaining("KUBEBUILDER_ASSETS")
        .hasMessageContaining("TEST_ASSET_ETCD");
  }

  @Test
  void aVersionTheProxyDoesNotServeIsNamedWithThoseOfItsMinorThatItDoes() {
    List<String> served =
        GoModFiles.servedVersions(
            "k8s.io/kubernetes v1.35.4 v1.36.1 v1.36.3 v1.37.2 v1.38.0-beta.0\n");
    assertThat(served)
        .containsExactly("v1.35.4", "v1.36.1", "v1.36.3", "v1.37.2", "v1.38.0-beta.0");

    assertThat(GoModFiles.versionNotServed("k8s.io/kubernetes", "v1.36.6", served))
        .contains("k8s.io/kubernetes@v1.36.6 is not served by the Go module proxy")
        .contains("of v1.36 it serves [v1.36.1, v1.36.3]")
        .contains("its newest release is v1.37.2")
        .contains("kubeharness.kubernetes.version");
    assertThat(GoModFiles.versionNotServed("k8s.io/kubernetes", "v1.33.0", served))
        .contains("it serves no v1.33.x");
    assertThat(GoModFiles.servedVersions("k8s.io/kubernetes\n")).isEmpty();
  }

  @Test
  void aModuleNeedingANewerGoThanTheLocalOneGetsThatToolchain() {
    assertThat(GoModFiles.toolchainFor("1.25.0", "go1.26.8", null)).isEmpty();
    assertThat(GoModFiles.toolchainFor("1.26.8", "go1.26.8", null)).isEmpty();
    assertThat(GoModFiles.toolchainFor("1.27.0", "go1.26.8", null)).contains("go1.27.0");
    assertThat(GoModFiles.toolchainFor("1.27", "go1.26.8", "local")).contains("go1.27");
    // A version the user named (an approved mirror's) wins over the go.mod's minimum.
    assertThat(GoModFiles.toolchainFor("1.27.0", "go1.26.8", "go1.27.3")).contains("go1.27.3");
    assertThat(GoModFiles.toolchainFor("1.27.0", "go1.26.8", "go1.27.3+auto")).contains("go1.27.3");
  }

  @Test
  void theProgressLineSaysWhereModulesComeFrom() {
    // kubeharness.offline does not stop a Go build, so its progress line names the proxy it uses.
    assertThat(new GoCommand.Go("go1.26.8", "https://proxy.golang.org,direct").fetching())
        .isEqualTo(", fetching modules through GOPROXY=https://proxy.golang.org,direct");
    assertThat(new GoCommand.Go("go1.26.8", "off").fetching())
        .isEqualTo(", GOPROXY=off (modules from the module cache only)");
  }

  @Test
  void goVersionsCompareNumerically() {
    assertThat(GoModFiles.compareGo("1.26.8", "1.26.10")).isNegative();
    assertThat(GoModFiles.compareGo("1.26", "1.26.0")).isZero();
    assertThat(GoModFiles.compareGo("1.27rc1", "1.26.8")).isPositive();
  }
}
