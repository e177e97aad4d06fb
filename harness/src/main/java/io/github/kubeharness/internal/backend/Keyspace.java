package io.github.kubeharness.internal.backend;

/**
 * An etcd key prefix an apiserver stores under; {@code seeded} when what an apiserver writes at its
 * first start is there already (the seed's {@code /registry}, or one of its slots).
 */
record Keyspace(String prefix, boolean seeded) {}
