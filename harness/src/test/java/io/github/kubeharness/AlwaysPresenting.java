package io.github.kubeharness;

import java.net.Socket;
import java.security.Principal;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.X509ExtendedKeyManager;

/**
 * A key manager that offers its one certificate to any server that asks for one, whatever issuers
 * the server names: a probe with a foreign certificate must really present it.
 */
final class AlwaysPresenting extends X509ExtendedKeyManager {
  private final PrivateKey key;
  private final X509Certificate[] chain;

  AlwaysPresenting(PrivateKey key, X509Certificate[] chain) {
    this.key = key;
    this.chain = chain;
  }

  @Override
  public String chooseClientAlias(String[] keyType, Principal[] issuers, Socket socket) {
    return "it";
  }

  @Override
  public String chooseEngineClientAlias(String[] keyType, Principal[] issuers, SSLEngine engine) {
    return "it";
  }

  @Override
  public X509Certificate[] getCertificateChain(String alias) {
    return chain;
  }

  @Override
  public PrivateKey getPrivateKey(String alias) {
    return key;
  }

  @Override
  public String[] getClientAliases(String keyType, Principal[] issuers) {
    return new String[] {"it"};
  }

  @Override
  public String[] getServerAliases(String keyType, Principal[] issuers) {
    return null;
  }

  @Override
  public String chooseServerAlias(String keyType, Principal[] issuers, Socket socket) {
    return null;
  }
}
