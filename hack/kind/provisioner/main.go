// Command volume-provisioner is the kind node image's dynamic provisioner: for each claim of a
// StorageClass naming it, it makes a directory under its root on the node and a hostPath
// PersistentVolume bound to that node; when a volume with reclaim policy Delete is released, it
// removes the directory. It runs as a pod on the cluster's one node with the root mounted from the
// node at the same path, so it needs no helper pods (whose image could not be pulled here); a
// cluster of several nodes would need it on each, which kind without kindnetd does not have.
// The provisioning protocol (claim annotations, events, retries) is
// sig-storage-lib-external-provisioner's.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"

	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	"k8s.io/klog/v2"
	"sigs.k8s.io/sig-storage-lib-external-provisioner/v13/controller"
)

type hostPathProvisioner struct {
	root string
	node string
}

func (p *hostPathProvisioner) Provision(_ context.Context, options controller.ProvisionOptions) (*v1.PersistentVolume, controller.ProvisioningState, error) {
	node := options.SelectedNodeName
	if node == "" {
		// Immediate binding: the volume is on the one node this provisioner runs on.
		node = p.node
	}
	if node != p.node {
		return nil, controller.ProvisioningFinished, fmt.Errorf("node %q was selected, but this provisioner keeps volumes on node %q only", node, p.node)
	}
	dir := filepath.Join(p.root, options.PVName)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, controller.ProvisioningFinished, fmt.Errorf("cannot make the volume's directory %s: %w", dir, err)
	}
	// Writable by the pod whatever its user, as kind's local-path-provisioner makes it; the root
	// above is the node's, inside the node container.
	if err := os.Chmod(dir, 0o777); err != nil {
		return nil, controller.ProvisioningFinished, fmt.Errorf("cannot open up %s: %w", dir, err)
	}
	reclaim := v1.PersistentVolumeReclaimDelete
	if options.StorageClass.ReclaimPolicy != nil {
		reclaim = *options.StorageClass.ReclaimPolicy
	}
	directory := v1.HostPathDirectory
	return &v1.PersistentVolume{
		ObjectMeta: metav1.ObjectMeta{Name: options.PVName},
		Spec: v1.PersistentVolumeSpec{
			PersistentVolumeReclaimPolicy: reclaim,
			AccessModes:                   options.PVC.Spec.AccessModes,
			VolumeMode:                    options.PVC.Spec.VolumeMode,
			MountOptions:                  options.StorageClass.MountOptions,
			Capacity:                      v1.ResourceList{v1.ResourceStorage: options.PVC.Spec.Resources.Requests[v1.ResourceStorage]},
			PersistentVolumeSource: v1.PersistentVolumeSource{
				HostPath: &v1.HostPathVolumeSource{Path: dir, Type: &directory},
			},
			NodeAffinity: &v1.VolumeNodeAffinity{Required: &v1.NodeSelector{NodeSelectorTerms: []v1.NodeSelectorTerm{{
				MatchExpressions: []v1.NodeSelectorRequirement{{Key: "kubernetes.io/hostname", Operator: v1.NodeSelectorOpIn, Values: []string{node}}},
			}}}},
		},
	}, controller.ProvisioningFinished, nil
}

func (p *hostPathProvisioner) Delete(_ context.Context, volume *v1.PersistentVolume) error {
	if volume.Spec.HostPath == nil || filepath.Dir(volume.Spec.HostPath.Path) != p.root {
		return &controller.IgnoredError{Reason: "not a volume under " + p.root}
	}
	return os.RemoveAll(volume.Spec.HostPath.Path)
}

func main() {
	name := flag.String("name", "kube-harness.io/kind-volumes", "the provisioner name StorageClasses give")
	root := flag.String("root", "/var/lib/kube-harness-volumes", "the node directory volumes are made in (mounted at the same path)")
	klog.InitFlags(nil)
	flag.Parse()
	node := os.Getenv("NODE_NAME")
	if node == "" {
		klog.Fatal("NODE_NAME is not set: give it from the pod's spec.nodeName (the downward API)")
	}
	if info, err := os.Stat(*root); err != nil {
		klog.Fatalf("the volume root %s cannot be read (%v): mount it from the node with hostPath", *root, err)
	} else if !info.IsDir() {
		klog.Fatalf("the volume root %s is not a directory: mount one from the node with hostPath", *root)
	}
	config, err := rest.InClusterConfig()
	if err != nil {
		klog.Fatalf("not in a pod with a ServiceAccount token: %v", err)
	}
	client := kubernetes.NewForConfigOrDie(config)
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, os.Interrupt)
	defer stop()
	klog.Infof("provisioning %s volumes under %s on node %s", *name, *root, node)
	controller.NewProvisionController(ctx, client, *name, &hostPathProvisioner{root: *root, node: node},
		controller.LeaderElection(false)).Run(ctx)
}
