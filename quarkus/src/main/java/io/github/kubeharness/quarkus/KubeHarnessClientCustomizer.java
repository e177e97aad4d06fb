package io.github.kubeharness.quarkus;

import io.fabric8.kubernetes.client.Config;
import io.quarkus.kubernetes.client.KubernetesConfigCustomizer;
import jakarta.inject.Singleton;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.eclipse.microprofile.config.ConfigProvider;

/**
 * Points the application's Kubernetes client at the kubeconfig the running {@link
 * KubeHarnessTestResource} handed over, at every start of the application. Quarkus fixes its {@code
 * quarkus.kubernetes-client.*} properties when it first starts an application built for the tests,
 * and keeps them across the restarts of that build: a second test class with another {@link
 * WithKubeHarness#serviceAccount()} would otherwise run the application with the first class's
 * credentials. A bean (the jar is a bean archive), so it does nothing in an application whose tests
 * do not use kube-harness: the property is then not set.
 */
@Singleton
public class KubeHarnessClientCustomizer implements KubernetesConfigCustomizer {

  @Override
  public void customize(Config config) {
    ConfigProvider.getConfig()
        .getOptionalValue(ClientProperties.APPLICATION_KUBECONFIG, String.class)
        .map(KubeHarnessClientCustomizer::read)
        .map(Config::fromKubeconfig)
        .ifPresent(given -> apply(given, config));
  }

  private static String read(String file) {
    try {
      return Files.readString(Path.of(file));
    } catch (IOException e) {
      throw new UncheckedIOException(
          "Cannot read the kubeconfig kube-harness wrote for the application, "
              + file
              + " (it lives as long as the test JVM that started the control plane)",
          e);
    }
  }

  private static void apply(Config given, Config config) {
    config.setMasterUrl(given.getMasterUrl());
    config.setCaCertData(given.getCaCertData());
    config.setCaCertFile(given.getCaCertFile());
    // Every credential, so none of the first start's is left beside this start's.
    config.setClientCertData(given.getClientCertData());
    config.setClientCertFile(given.getClientCertFile());
    config.setClientKeyData(given.getClientKeyData());
    config.setClientKeyFile(given.getClientKeyFile());
    config.setClientKeyAlgo(given.getClientKeyAlgo());
    config.setOauthToken(given.getOauthToken());
    config.setAutoOAuthToken(given.getAutoOAuthToken());
    config.setUsername(given.getUsername());
    config.setPassword(given.getPassword());
  }
}
