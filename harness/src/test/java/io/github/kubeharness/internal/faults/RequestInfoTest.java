package io.github.kubeharness.internal.faults;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class RequestInfoTest {

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "GET    | /api/v1/namespaces/ns/configmaps           |              | list   | configmaps        | ns  | ''",
        "GET    | /api/v1/namespaces/ns/configmaps/cm        |              | get    | configmaps        | ns  | cm",
        "GET    | /api/v1/configmaps                         | watch=true   | watch  | configmaps        | ''  | ''",
        "GET    | /apis/apps/v1/namespaces/ns/deployments    | a=b&watch=1  | watch  | deployments       | ns  | ''",
        "POST   | /apis/apps/v1/namespaces/ns/deployments    |              | create | deployments       | ns  | ''",
        "PUT    | /apis/x.io/v1/namespaces/ns/foos/f/status  |              | update | foos/status       | ns  | f",
        "PATCH  | /apis/x.io/v1/namespaces/ns/foos/f         |              | patch  | foos              | ns  | f",
        "DELETE | /api/v1/namespaces/ns/pods/p               |              | delete | pods              | ns  | p",
        "DELETE | /api/v1/namespaces/ns/pods                 |              | deletecollection | pods    | ns  | ''",
        "GET    | /api/v1/namespaces/ns                      |              | get    | namespaces        | ns  | ns",
        "PUT    | /api/v1/namespaces/ns/finalize             |              | update | namespaces/finalize | ns | ns",
        "GET    | /apis/rbac.authorization.k8s.io/v1/clusterroles/admin | | get    | clusterroles      | ''  | admin",
        "GET    | /version                                   |              | get    | ''                | ''  | ''",
        "GET    | /apis                                      |              | get    | ''                | ''  | ''",
      })
  void readsVerbResourceNamespaceAndNameAsTheApiServerDoes(
      String method,
      String path,
      String query,
      String verb,
      String resource,
      String namespace,
      String name) {
    RequestInfo info = RequestInfo.of(method, path, query);

    assertThat(info).isEqualTo(new RequestInfo(verb, resource, namespace, name));
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "PATCH | /apis/x.io/v1/namespaces/ns/foos/f/status | patch foos/status ns/f",
        "GET   | /api/v1/namespaces/ns/configmaps          | list configmaps ns",
        "GET   | /api/v1/namespaces/default                | get namespaces default",
        "GET   | /api/v1/nodes/n1                          | get nodes n1",
      })
  void describesItselfForTheLog(String method, String path, String text) {
    assertThat(RequestInfo.of(method, path, null)).hasToString(text);
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "GET | /api/v1/namespaces/ns/configmaps    | resourceVersion=0                     | true",
        "GET | /api/v1/namespaces/ns/configmaps/c  | resourceVersion=0                     | true",
        "GET | /api/v1/namespaces/ns/configmaps    | resourceVersion=12&resourceVersionMatch=NotOlderThan | true",
        "GET | /api/v1/namespaces/ns/configmaps/c  | resourceVersion=12                    | true",
        "GET | /api/v1/namespaces/ns/configmaps    | resourceVersion=12&resourceVersionMatch=Exact | false",
        "GET | /api/v1/namespaces/ns/configmaps    |                                       | false",
        "GET | /api/v1/namespaces/ns/configmaps    | resourceVersion=                      | false",
        "GET | /api/v1/namespaces/ns/configmaps    | watch=true&resourceVersion=0          | false",
        "PUT | /api/v1/namespaces/ns/configmaps/c  | resourceVersion=0                     | false",
      })
  void aReadTheWatchCacheMayAnswerIsCacheable(
      String method, String path, String query, boolean cacheable) {
    assertThat(RequestInfo.of(method, path, query).cacheable()).isEqualTo(cacheable);
  }
}
