module kubeharness.local/web

go 1.22
