package io.github.kubeharness.webhooks;

import java.nio.file.Path;

/**
 * The serving certificate of webhooks under test: valid for {@code 127.0.0.1} and {@code
 * localhost}, signed by a CA of kube-harness's whose certificate becomes each configuration's
 * {@code caBundle}. The files are PEM, owner-only, deleted when the JVM ends.
 *
 * @param caCertificate the CA that signed {@code certificate} (what the API server trusts)
 * @param certificate the serving certificate
 * @param privateKey its private key (EC, PKCS#8 PEM)
 */
public record WebhookTls(Path caCertificate, Path certificate, Path privateKey) {}
