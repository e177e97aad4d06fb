package io.github.kubeharness.internal.faults;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.ListOptions;
import io.fabric8.kubernetes.api.model.ListOptionsBuilder;
import io.fabric8.kubernetes.api.model.ServiceAccountBuilder;
import io.fabric8.kubernetes.api.model.rbac.RoleBindingBuilder;
import io.fabric8.kubernetes.api.model.rbac.RoleBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.github.kubeharness.AnonymousHttp;
import io.github.kubeharness.ControlPlane;
import io.github.kubeharness.Stranger;
import io.github.kubeharness.faults.FaultRule;
import io.github.kubeharness.faults.Faults;
import io.github.kubeharness.faults.InjectedFault;
import io.github.kubeharness.junit.ControllerTest;
import io.github.kubeharness.junit.TestNamespace;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntSupplier;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

/**
 * The fault proxy authenticates every request before any rule sees it, as the second local user
 * would try it against a proxy with a {@code stale()} rule: no credentials, {@code Bearer x} and a
 * self-signed client certificate each get 401 and leave the rule's hits, its seeded draws and the
 * fault log as they were; the run's own certificate and a token the API server accepts get through
 * (the positive controls). A stale snapshot is served only to the identity whose read made it.
 */
@ControllerTest(backend = "local")
class FaultProxyAuthIT {

  private static final ListOptions FROM_CACHE =
      new ListOptionsBuilder().withResourceVersion("0").build();

  KubernetesClient client;
  ControlPlane controlPlane;
  Faults faults;
  @TestNamespace String namespace;

  @Test
  void strangersGetA401AndTouchNoRuleCountOrLog() {
    client.resource(configMap("first")).create();
    InjectedFault stale =
        faults.respond(FaultRule.requests().verbs("list").resource("configmaps").stale());
    try (KubernetesClient owner = ownerThroughProxy("auth-it-owner")) {
      assertThat(valuesFromCache(owner)).containsExactly("first");
      client.resource(configMap("second")).update();
      int hits = stale.hits();
      List<String> log = faults.log();

      for (Stranger.Result answer : strangersAttempts(cachedListUrl())) {
        assertThat(answer.output())
            .as("the second user's attempt got: %s", answer.output())
            .endsWith("\n401")
            .contains("\"kind\":\"Status\"", "\"code\":401", "kube-harness fault proxy")
            .doesNotContain("\"items\"", "first", "second");
      }
      assertThat(stale.hits()).as("hits after the second user's attempts").isEqualTo(hits);
      assertThat(faults.log()).as("the fault log after the second user's attempts").isEqualTo(log);

      // Positive controls: the run's own certificate gets the snapshot its read made ...
      assertThat(valuesFromCache(owner)).containsExactly("first");
      assertThat(stale.hits()).isEqualTo(hits + 1);
      // ... and the second user gets through the same way with a token the API server accepts.
      String token = serviceAccountWithReadAccess("reader");
      Stranger.Result withToken =
          Stranger.curl(cachedListUrl(), "-H", "Authorization: Bearer " + token);
      assertThat(withToken.output()).as(withToken.output()).endsWith("\n200").contains("second");
    }
  }

  @Test
  void aSnapshotIsServedOnlyToTheIdentityWhoseReadMadeIt() throws Exception {
    client.resource(configMap("first")).create();
    faults.respond(FaultRule.requests().verbs("list").resource("configmaps").stale());
    try (KubernetesClient owner = ownerThroughProxy("auth-it-snapshot-owner")) {
      assertThat(valuesFromCache(owner)).containsExactly("first");
      client.resource(configMap("second")).update();

      // A real token of a ServiceAccount without any right: the API server's answer, not the
      // owner's snapshot.
      HttpResponse<String> noRights = get(cachedListUrl(), serviceAccount("no-rights"));
      assertThat(noRights.statusCode()).as(noRights.body()).isEqualTo(403);
      assertThat(noRights.body()).contains("\"reason\":\"Forbidden\"").doesNotContain("first");

      // One that may read makes its own snapshot on its first read, and keeps it.
      String reader = serviceAccountWithReadAccess("reader");
      assertThat(get(cachedListUrl(), reader).body()).contains("second").doesNotContain("first");
      client.resource(configMap("third")).update();
      assertThat(get(cachedListUrl(), reader).body()).contains("second").doesNotContain("third");
      assertThat(valuesFromCache(owner)).containsExactly("first");
    }
  }

  @Test
  void strangersDrawNothingFromTheRulesSeed() {
    client.resource(configMap("first")).create();
    ProxyFaults base = (ProxyFaults) faults;
    FaultRule coinFlip =
        FaultRule.requests().verbs("list").resource("configmaps").probability(0.5).stale();
    try (KubernetesClient owner = ownerThroughProxy("auth-it-draws")) {
      InjectedFault withStrangers = base.scoped(namespace, Instant.now(), 4242L).respond(coinFlip);
      for (int round = 0; round < 3; round++) {
        strangersAttempts(cachedListUrl())
            .forEach(a -> assertThat(a.output()).as(a.output()).endsWith("\n401"));
      }
      List<Boolean> struck = strikes(owner, withStrangers::hits);
      withStrangers.remove();

      InjectedFault alone = base.scoped(namespace, Instant.now(), 4242L).respond(coinFlip);
      List<Boolean> replayed = strikes(owner, alone::hits);
      alone.remove();

      assertThat(struck).as("a coin flip: both faces").contains(true, false);
      assertThat(struck).as("the same seed strikes the same requests").isEqualTo(replayed);
    }
  }

  @Test
  void aTokenIsReviewedOnceForTheLifeOfTheProxy() throws Exception {
    client.resource(configMap("first")).create();
    String reader = serviceAccountWithReadAccess("reviewed-once");
    Path audit = controlPlane.auditLogFile().orElseThrow();
    int before = tokenReviews(audit);
    for (int i = 0; i < 5; i++) {
      assertThat(get(cachedListUrl(), reader).statusCode()).isEqualTo(200);
    }
    // A token never seen is reviewed: once the audit log shows its review, the reader's five
    // requests' would show before it.
    assertThat(get(cachedListUrl(), "never-seen").statusCode()).isEqualTo(401);
    Awaitility.await().until(() -> tokenReviews(audit) >= before + 2);
    assertThat(tokenReviews(audit)).as("reviews in " + audit).isEqualTo(before + 2);
  }

  // ---- the second user's attempts ---------------------------------------------------------

  /** No credentials, {@code Bearer x}, a self-signed client certificate claiming to be admin. */
  private static List<Stranger.Result> strangersAttempts(String url) {
    List<Stranger.Result> answers = new ArrayList<>();
    answers.add(Stranger.curl(url));
    answers.add(Stranger.curl(url, "-H", "Authorization: Bearer x"));
    answers.add(
        Stranger.run(
            "d=$(mktemp -d) && cd \"$d\" && openssl req -x509 -newkey ec -pkeyopt"
                + " ec_paramgen_curve:prime256v1 -nodes -days 1 -keyout k.pem -out c.pem"
                + " -subj '/O=system:masters/CN=kube-harness-admin' 2>/dev/null"
                + " && curl -sS -k --max-time 5 -w '\\n%{http_code}' --cert c.pem --key k.pem '"
                + url
                + "'; cd / && rm -rf \"$d\""));
    return answers;
  }

  // ---- the run's own requests -------------------------------------------------------------

  private String cachedListUrl() {
    return faults.proxyUrl() + "/api/v1/namespaces/" + namespace + "/configmaps?resourceVersion=0";
  }

  private KubernetesClient ownerThroughProxy(String user) {
    return new KubernetesClientBuilder()
        .withConfig(faults.route(controlPlane.addUser(user, List.of("system:masters")).config()))
        .build();
  }

  private List<String> valuesFromCache(KubernetesClient through) {
    return through.configMaps().inNamespace(namespace).list(FROM_CACHE).getItems().stream()
        .filter(c -> c.getMetadata().getName().equals("c"))
        .map(c -> c.getData().get("v"))
        .toList();
  }

  /** Whether each of 24 reads was struck by the rule whose hits {@code hits} gives. */
  private List<Boolean> strikes(KubernetesClient owner, IntSupplier hits) {
    List<Boolean> struck = new ArrayList<>();
    for (int i = 0; i < 24; i++) {
      int before = hits.getAsInt();
      valuesFromCache(owner);
      struck.add(hits.getAsInt() > before);
    }
    return struck;
  }

  private static HttpResponse<String> get(String url, String token) throws Exception {
    return AnonymousHttp.client()
        .send(
            HttpRequest.newBuilder(URI.create(url))
                .header("Authorization", "Bearer " + token)
                .build(),
            HttpResponse.BodyHandlers.ofString());
  }

  /** A ServiceAccount's token, from the TokenRequest API: one the API server accepts. */
  private String serviceAccount(String name) {
    client
        .serviceAccounts()
        .inNamespace(namespace)
        .resource(
            new ServiceAccountBuilder().withNewMetadata().withName(name).endMetadata().build())
        .create();
    return Config.fromKubeconfig(controlPlane.serviceAccountKubeconfig(namespace, name))
        .getAutoOAuthToken();
  }

  /** A ServiceAccount's token that may read ConfigMaps in the test's namespace. */
  private String serviceAccountWithReadAccess(String name) {
    String token = serviceAccount(name);
    client
        .rbac()
        .roles()
        .inNamespace(namespace)
        .resource(
            new RoleBuilder()
                .withNewMetadata()
                .withName(name)
                .endMetadata()
                .addNewRule()
                .withApiGroups("")
                .withResources("configmaps")
                .withVerbs("get", "list")
                .endRule()
                .build())
        .create();
    client
        .rbac()
        .roleBindings()
        .inNamespace(namespace)
        .resource(
            new RoleBindingBuilder()
                .withNewMetadata()
                .withName(name)
                .endMetadata()
                .withNewRoleRef("rbac.authorization.k8s.io", "Role", name)
                .addNewSubject()
                .withKind("ServiceAccount")
                .withName(name)
                .withNamespace(namespace)
                .endSubject()
                .build())
        .create();
    // RBAC's authorizer learns of the binding from a watch: wait until the API server itself says
    // yes, so that what the proxy is asked next does not race it.
    String direct = controlPlane.apiServerUrl() + "/api/v1/namespaces/" + namespace + "/configmaps";
    Awaitility.await().until(() -> get(direct, token).statusCode() == 200);
    return token;
  }

  /** The TokenReviews the proxy made, as the API server's audit log records them. */
  private static int tokenReviews(Path audit) throws IOException {
    try (var lines = Files.lines(audit)) {
      return (int)
          lines
              .filter(
                  l -> l.contains("\"requestURI\":\"/apis/authentication.k8s.io/v1/tokenreviews"))
              .filter(l -> l.contains("\"username\":\"" + TokenReviews.REVIEWER + "\""))
              .count();
    }
  }

  private static ConfigMap configMap(String value) {
    return new ConfigMapBuilder()
        .withNewMetadata()
        .withName("c")
        .endMetadata()
        .addToData("v", value)
        .build();
  }
}
