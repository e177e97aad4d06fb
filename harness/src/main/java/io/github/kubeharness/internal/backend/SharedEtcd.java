package io.github.kubeharness.internal.backend;

import io.github.kubeharness.internal.controlplane.EtcdTls;

/**
 * Where an apiserver reaches an etcd, the client certificate etcd asks of it, and the seed's
 * bootstrapped keyspaces still free for the clusters beside the one that runs it.
 */
record SharedEtcd(String url, EtcdTls tls, SeedSlots slots) {}
