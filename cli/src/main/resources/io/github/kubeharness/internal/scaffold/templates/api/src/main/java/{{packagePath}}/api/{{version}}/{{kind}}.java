package {{package}}.api.{{version}};

import io.fabric8.generator.annotation.Default;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Plural;
import io.fabric8.kubernetes.model.annotation.Version;

/**
 * A {{kind}} ({@code {{fullGroup}}/{{version}}}): the operator runs it as a Deployment it owns. The
 * CRD is generated from this class and its spec and status (target/classes/META-INF/fabric8, and
 * config/crd/bases with {@code make manifests}).
 */
@Group({{kind}}.GROUP)
@Version({{kind}}.VERSION)
@Plural({{kind}}.PLURAL)
public class {{kind}} extends CustomResource<{{kind}}Spec, {{kind}}Status> implements Namespaced {

  /** The API group. */
  public static final String GROUP = "{{fullGroup}}";

  /** The served version. */
  public static final String VERSION = "{{version}}";

  /** The resource name, as RBAC rules and URLs spell it. */
  public static final String PLURAL = "{{plural}}";

  /** The desired state; {@code {}} by default, so that every field gets its default. */
  @Override
  @Default("{}")
  public {{kind}}Spec getSpec() {
    return super.getSpec();
  }
}
