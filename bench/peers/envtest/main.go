// Command envtest-peer measures how long controller-runtime's envtest takes to
// bring up a bare control plane (etcd + kube-apiserver, no CRDs, no webhooks).
//
// Why this exists: kube-harness's `make bench` reports a peer figure,
// peer_envtest_start_ms, so that our own control-plane start time can be read
// against the most common alternative. To keep that comparison honest the peer
// is run on the same machine and pointed at the very same etcd/kube-apiserver
// binaries that kube-harness uses; only the orchestration code differs.
//
// Output contract (parsed by the Java side of the bench):
//   - stdout carries exactly one line per counted run: "START_MS <ms, 1 decimal>"
//   - everything else (diagnostics, errors) goes to stderr
//   - exit code 0 on success, 1 on any failure
//
// Usage:
//
//	envtest-peer [-assets DIR] [-runs N] [-warmup=true|false]
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"
	"time"

	"github.com/go-logr/logr"
	"sigs.k8s.io/controller-runtime/pkg/envtest"
	ctrllog "sigs.k8s.io/controller-runtime/pkg/log"
)

const (
	startTimeout = 60 * time.Second
	stopTimeout  = 60 * time.Second
)

// requiredBinaries are the files envtest's Start runs. kubectl is not among
// them: Start only writes a kubeconfig for it and never executes it, so
// demanding it here made the peer fail on machines that had provisioned the
// control plane without kubectl (as `make test` does), measuring nothing.
var requiredBinaries = []string{"etcd", "kube-apiserver"}

func main() {
	if err := run(); err != nil {
		fmt.Fprintf(os.Stderr, "envtest-peer: %v\n", err)
		os.Exit(1)
	}
}

func run() error {
	assets := flag.String("assets", os.Getenv("KUBEBUILDER_ASSETS"),
		"directory holding etcd and kube-apiserver (default: $KUBEBUILDER_ASSETS)")
	runs := flag.Int("runs", 10, "number of timed start/stop cycles")
	warmup := flag.Bool("warmup", true, "do one untimed start/stop cycle first")
	flag.Parse()

	if flag.NArg() > 0 {
		return fmt.Errorf("unexpected arguments: %v", flag.Args())
	}
	if *runs < 1 {
		return fmt.Errorf("-runs must be >= 1, got %d", *runs)
	}
	if *assets == "" {
		return errors.New("no assets directory: pass -assets DIR or set KUBEBUILDER_ASSETS")
	}
	dir, err := filepath.Abs(*assets)
	if err != nil {
		return fmt.Errorf("resolving assets directory %q: %w", *assets, err)
	}
	if err := checkAssets(dir); err != nil {
		return err
	}

	// controller-runtime logs through a delegating logger; give it a sink that
	// drops everything so nothing ever lands on stdout (and so it does not
	// complain on stderr that SetLogger was never called).
	ctrllog.SetLogger(logr.Discard())

	// envtest's binary lookup lets KUBEBUILDER_ASSETS and TEST_ASSET_* env vars
	// win over BinaryAssetsDirectory. -assets must be authoritative, so drop
	// them. Also make sure the control plane's own output can never be attached
	// to our stdout.
	for _, v := range []string{
		"KUBEBUILDER_ASSETS",
		"TEST_ASSET_ETCD",
		"TEST_ASSET_KUBE_APISERVER",
		"TEST_ASSET_KUBECTL",
		"KUBEBUILDER_ATTACH_CONTROL_PLANE_OUTPUT",
	} {
		_ = os.Unsetenv(v)
	}

	// Control-plane children run in their own process group, so a Ctrl-C or
	// SIGTERM would not reach them. Catch the signal instead, finish the cycle
	// in progress (which always ends with Stop) and then bail out.
	ctx, cancel := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer cancel()

	if *warmup {
		if _, err := cycle(dir); err != nil {
			return fmt.Errorf("warm-up run: %w", err)
		}
	}
	for i := 1; i <= *runs; i++ {
		if ctx.Err() != nil {
			return errors.New("interrupted")
		}
		d, err := cycle(dir)
		if err != nil {
			return fmt.Errorf("run %d/%d: %w", i, *runs, err)
		}
		fmt.Printf("START_MS %.1f\n", float64(d.Microseconds())/1000.0)
	}
	return nil
}

// cycle starts a fresh envtest environment, returns how long Start took, and
// always stops it again before returning.
func cycle(dir string) (time.Duration, error) {
	env := &envtest.Environment{
		BinaryAssetsDirectory:    dir,
		ControlPlaneStartTimeout: startTimeout,
		ControlPlaneStopTimeout:  stopTimeout,
	}

	t0 := time.Now()
	_, startErr := env.Start()
	elapsed := time.Since(t0)

	// Stop even when Start failed: Start can fail after the processes are up
	// (e.g. waiting for the default namespace), and we must not leak them.
	stopErr := env.Stop()

	if startErr != nil {
		if stopErr != nil {
			return 0, fmt.Errorf("starting envtest: %w (cleanup also failed: %v)", startErr, stopErr)
		}
		return 0, fmt.Errorf("starting envtest: %w", startErr)
	}
	if stopErr != nil {
		return 0, fmt.Errorf("stopping envtest: %w", stopErr)
	}
	return elapsed, nil
}

// checkAssets fails early, naming the binary and the directory, when the
// assets directory is unusable. envtest's own error for this case is vaguer.
func checkAssets(dir string) error {
	st, err := os.Stat(dir)
	if err != nil {
		return fmt.Errorf("assets directory %s: %w", dir, err)
	}
	if !st.IsDir() {
		return fmt.Errorf("assets path %s is not a directory", dir)
	}
	for _, name := range requiredBinaries {
		p := filepath.Join(dir, name)
		st, err := os.Stat(p)
		switch {
		case errors.Is(err, os.ErrNotExist):
			return fmt.Errorf("binary %q not found in assets directory %s", name, dir)
		case err != nil:
			return fmt.Errorf("binary %q in assets directory %s: %w", name, dir, err)
		case !st.Mode().IsRegular():
			return fmt.Errorf("binary %q in assets directory %s is not a regular file", name, dir)
		case st.Mode().Perm()&0o111 == 0:
			return fmt.Errorf("binary %q in assets directory %s is not executable", name, dir)
		}
	}
	return nil
}
