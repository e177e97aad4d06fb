package io.github.kubeharness;

import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Names the docs write in backticks that are not types of this repository, by whose they are: a
 * name that is neither one of these nor a type here is a doc that outlived a rename.
 */
final class ExternalNames {

  private static final String KUBERNETES_KINDS =
      "AdmissionReview ConversionReview MutatingWebhookConfiguration Service ServiceAccount"
          + " ValidatingWebhookConfiguration Certificate WebhookAdmissionConfiguration"
          + " ValidatingAdmissionWebhook MutatingAdmissionWebhook Authorization";
  private static final String KUBERNETES_STATES =
      "Available BackOff CrashLoopBackOff Degraded Delete ErrImagePull Failed ImagePullBackOff"
          + " Immediate Pending Progressing ProvisioningSucceeded Ready ReplicasUnavailable"
          + " Unhealthy WaitForFirstConsumer Webhook NodePort OOMScoreAdjust Unauthorized Established"
          + " Terminating";
  private static final String JDK =
      "AutoCloseable HttpsServer NoClassDefFoundError ServiceLoader System Thread";
  private static final String JUNIT =
      "BeforeAll BeforeEach ExtensionConfigurationException ParameterizedTest RegisterExtension"
          + " RepeatedTest Test TestInstance Execution ExecutionMode Isolated ResourceLock";
  private static final String FABRIC8 =
      "GenericKubernetesResource KubernetesClient KubernetesSerialization Resource Serialization";
  private static final String JOSDK_AND_QUARKUS =
      "AdmissionController InformerEventSource LocallyRunOperatorExtension Mutator Operator"
          + " ClusterDeployedOperatorExtension"
          + " Validator ValidationRule KubernetesConfigCustomizer QuarkusTest WithTestResource"
          + " QuarkusIntegrationTest";
  private static final String SPRING_AND_CDI = "SpringBootTest Inject";
  private static final String JACKSON =
      "ArrayNode JsonLocation JsonNode JsonNodeFactory JsonProcessingException MappingIterator"
          + " MissingNode ObjectMapper ObjectNode YAMLFactory YAMLGenerator YAMLMapper";
  private static final String PEERS =
      "EnableKubeAPIServer WebhookInstallOptions AddUser Start Eventually"
          + " NewDefaultAuthenticationInfoResolver KubeConfig K3sContainer CRDDirectoryPaths"
          + " ErrorIfCRDPathMissing BeforeSuite";
  private static final String FILES = "Makefile README";

  static final Set<String> ALL =
      Stream.of(
              KUBERNETES_KINDS,
              KUBERNETES_STATES,
              JDK,
              JUNIT,
              FABRIC8,
              JOSDK_AND_QUARKUS,
              SPRING_AND_CDI,
              JACKSON,
              PEERS,
              FILES)
          .flatMap(names -> Stream.of(names.split(" ")))
          .collect(Collectors.toUnmodifiableSet());

  private ExternalNames() {}
}
