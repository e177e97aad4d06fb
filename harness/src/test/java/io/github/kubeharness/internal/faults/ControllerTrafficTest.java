package io.github.kubeharness.internal.faults;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ControllerTrafficTest {

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "POST  | /api/v1/namespaces/ns/configmaps           | /api/v1/namespaces/ns/configmaps   | /api/v1/namespaces/ns/configmaps",
        "PATCH | /apis/x.io/v1/namespaces/ns/foos/f/status  | /apis/x.io/v1/namespaces/ns/foos   | /apis/x.io/v1/namespaces/ns/foos/f",
        "PUT   | /apis/x.io/v1/namespaces/ns/foos/f         | /apis/x.io/v1/namespaces/ns/foos   | /apis/x.io/v1/namespaces/ns/foos/f",
        "GET   | /apis/apps/v1/namespaces/ns/deployments    | /apis/apps/v1/namespaces/ns/deployments | /apis/apps/v1/namespaces/ns/deployments",
      })
  void aRequestNamesItsCollectionAndItsObjectWithoutSubresource(
      String method, String path, String collection, String object) {
    RequestInfo info = RequestInfo.of(method, path, null);

    assertThat(ControllerTraffic.collectionPath(path, info)).isEqualTo(collection);
    assertThat(ControllerTraffic.objectPath(path, info)).isEqualTo(object);
  }

  @Test
  void writesAreCountedPerNamespaceWithTheirAnswerAndTheRestIsActivity() {
    ControllerTraffic traffic = new ControllerTraffic();
    String status = "/apis/x.io/v1/namespaces/ns/foos/f/status";
    String children = "/api/v1/namespaces/ns/configmaps";

    traffic.watching(
        RequestInfo.of("GET", "/apis/x.io/v1/namespaces/ns/foos", "watch=true"),
        "/apis/x.io/v1/namespaces/ns/foos");
    traffic.answered(RequestInfo.of("PATCH", status, null), status, 200);
    traffic.answered(RequestInfo.of("PATCH", status, null), status, 409);
    traffic.answered(RequestInfo.of("POST", children, null), children, 201);
    traffic.answered(RequestInfo.of("GET", children, null), children, 200);
    traffic.answered(RequestInfo.of("POST", "/api/v1/namespaces/other/configmaps", null), "", 201);
    traffic.delivered(new WatchEvent("MODIFIED", "ns", "f", "7"));

    TrafficTally ns = traffic.of("ns");
    assertThat(ns.writes()).isEqualTo(3);
    assertThat(ns.writesFrom(0))
        .extracting(ControllerWrite::toString)
        .containsExactly(
            "patch foos/status f -> 200", "patch foos/status f -> 409", "create configmaps -> 201");
    assertThat(ns.writesFrom(1)).extracting(ControllerWrite::accepted).containsExactly(false, true);
    assertThat(ns.events()).isEqualTo(1);
    assertThat(ns.activity()).isEqualTo(5); // 3 writes, 1 read, 1 event
    assertThat(ns.collections()).containsExactly("/apis/x.io/v1/namespaces/ns/foos", children);
    assertThat(ns.createdInto()).containsExactly(children);
    assertThat(traffic.of("other").writes()).isEqualTo(1);
  }
}
