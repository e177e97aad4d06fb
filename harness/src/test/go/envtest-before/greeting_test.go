// The "before" of docs/migrating-from-envtest.md: the region below is shown there (DocSnippetsTest
// checks it). Compiled with `go vet ./...`, run with KUBEBUILDER_ASSETS set and `go test ./...`;
// make test does not run it. testdata/crds links to the quick start's CRD directory.
package envtestbefore

// snippet:before
import (
	"context"
	"path/filepath"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/envtest"
)

func TestGreetingIsStored(t *testing.T) {
	env := &envtest.Environment{ // binaries from KUBEBUILDER_ASSETS
		CRDDirectoryPaths:     []string{filepath.Join("testdata", "crds")},
		ErrorIfCRDPathMissing: true,
	}
	cfg, err := env.Start() // etcd + kube-apiserver, CRDs installed and served
	if err != nil {
		t.Fatal(err)
	}
	defer env.Stop()

	c, err := client.New(cfg, client.Options{})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	ns := &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: "t1"}}
	if err := c.Create(ctx, ns); err != nil { // yours to make; never deleted for real
		t.Fatal(err)
	}

	greeting := &unstructured.Unstructured{}
	greeting.SetAPIVersion("example.com/v1")
	greeting.SetKind("Greeting")
	greeting.SetNamespace("t1")
	greeting.SetName("hello")
	greeting.Object["spec"] = map[string]interface{}{"message": "Hello, world"}
	if err := c.Create(ctx, greeting); err != nil {
		t.Fatal(err)
	}

	got := &unstructured.Unstructured{}
	got.SetAPIVersion("example.com/v1")
	got.SetKind("Greeting")
	deadline := time.Now().Add(30 * time.Second) // or Gomega's Eventually
	for {
		err := c.Get(ctx, types.NamespacedName{Namespace: "t1", Name: "hello"}, got)
		if err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal(err)
		}
		time.Sleep(100 * time.Millisecond)
	}
	msg, _, _ := unstructured.NestedString(got.Object, "spec", "message")
	if msg != "Hello, world" {
		t.Fatalf("message = %q", msg)
	}
}

// end-snippet
