package io.github.kubeharness;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import java.lang.reflect.Array;
import java.lang.reflect.Constructor;
import java.lang.reflect.Executable;
import java.lang.reflect.Field;
import java.lang.reflect.Member;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.Type;
import java.lang.reflect.TypeVariable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import java.util.stream.Stream;

/**
 * The public API as text: every type of a package outside {@code internal} that a user can reach,
 * with its public and protected members, one line each, sorted — what harness/api/kube-harness.api
 * holds. Signatures only: a constant's value, a method's body and its annotations are not API here.
 */
final class ApiSignature {

  static final String INTERNAL = "io.github.kubeharness.internal";

  private static final int TYPE_MODIFIERS =
      Modifier.PUBLIC | Modifier.PROTECTED | Modifier.STATIC | Modifier.FINAL | Modifier.ABSTRACT;
  private static final int MEMBER_MODIFIERS =
      Modifier.PUBLIC | Modifier.PROTECTED | Modifier.STATIC | Modifier.FINAL | Modifier.ABSTRACT;

  private ApiSignature() {}

  /** The signature file's text for the harness's classes. */
  static String of(JavaClasses classes) {
    List<Class<?>> types =
        classes.stream()
            .filter(c -> !c.getPackageName().startsWith(INTERNAL))
            .filter(ApiSignature::reachable)
            .<Class<?>>map(JavaClass::reflect)
            .sorted(Comparator.comparing(Class::getName))
            .toList();
    StringBuilder text = new StringBuilder();
    for (Class<?> type : types) {
      text.append(type(type)).append('\n');
      members(type).forEach(line -> text.append("  ").append(line).append('\n'));
    }
    return text.toString();
  }

  /** Public, or protected in a public type, all the way out; anonymous and local classes never. */
  static boolean reachable(JavaClass type) {
    if (type.isAnonymousClass() || type.isLocalClass()) {
      return false;
    }
    int modifiers = type.reflect().getModifiers();
    boolean visible =
        Modifier.isPublic(modifiers) || (type.isNestedClass() && Modifier.isProtected(modifiers));
    return visible && type.getEnclosingClass().map(ApiSignature::reachable).orElse(true);
  }

  private static String type(Class<?> type) {
    String kind =
        type.isAnnotation()
            ? "@interface"
            : type.isInterface()
                ? "interface"
                : type.isEnum() ? "enum" : type.isRecord() ? "record" : "class";
    int modifiers = type.getModifiers() & TYPE_MODIFIERS;
    if (type.isInterface()) {
      modifiers &= ~Modifier.ABSTRACT;
    }
    if (type.isEnum() || type.isRecord()) {
      modifiers &= ~(Modifier.FINAL | Modifier.STATIC);
    }
    StringBuilder line = new StringBuilder(prefix(modifiers)).append(kind).append(' ');
    line.append(type.getName()).append(typeParameters(type.getTypeParameters()).stripTrailing());
    Type superclass = type.getGenericSuperclass();
    if (superclass != null
        && superclass != Object.class
        && !type.isEnum()
        && !type.isRecord()
        && !type.isInterface()) {
      line.append(" extends ").append(superclass.getTypeName());
    }
    List<String> interfaces =
        Arrays.stream(type.getGenericInterfaces())
            .map(Type::getTypeName)
            .filter(name -> !type.isAnnotation())
            .toList();
    if (!interfaces.isEmpty()) {
      line.append(type.isInterface() ? " extends " : " implements ")
          .append(String.join(", ", interfaces));
    }
    return line.toString();
  }

  private static Stream<String> members(Class<?> type) {
    // By name, then by signature: a member's overloads sit together whatever their modifiers.
    List<String[]> lines = new ArrayList<>();
    for (Field field : type.getDeclaredFields()) {
      if (visible(field)) {
        lines.add(
            named(
                field.getName(),
                prefix(field.getModifiers() & MEMBER_MODIFIERS)
                    + field.getGenericType().getTypeName()
                    + " "
                    + field.getName()));
      }
    }
    for (Constructor<?> constructor : type.getDeclaredConstructors()) {
      if (visible(constructor)) {
        lines.add(named("<init>", executable(type, constructor, "")));
      }
    }
    for (Method method : type.getDeclaredMethods()) {
      if (visible(method) && !method.isBridge()) {
        lines.add(
            named(
                method.getName(),
                executable(type, method, method.getGenericReturnType().getTypeName() + " ")));
      }
    }
    return lines.stream()
        .sorted(Comparator.<String[], String>comparing(l -> l[0]).thenComparing(l -> l[1]))
        .map(l -> l[1]);
  }

  private static String[] named(String name, String line) {
    return new String[] {name, line};
  }

  private static boolean visible(Member member) {
    int modifiers = member.getModifiers();
    return !member.isSynthetic()
        && (Modifier.isPublic(modifiers) || Modifier.isProtected(modifiers));
  }

  private static String executable(Class<?> owner, Executable executable, String returnType) {
    int modifiers = executable.getModifiers() & MEMBER_MODIFIERS;
    if (owner.isInterface()) {
      modifiers &= ~Modifier.ABSTRACT;
    }
    String name =
        executable instanceof Constructor<?> ? owner.getSimpleName() : executable.getName();
    String line =
        prefix(modifiers)
            + (executable instanceof Method m && m.isDefault() ? "default " : "")
            + typeParameters(executable.getTypeParameters())
            + returnType
            + name
            + Arrays.stream(executable.getGenericParameterTypes())
                .map(Type::getTypeName)
                .collect(Collectors.joining(", ", "(", ")"));
    Type[] exceptions = executable.getGenericExceptionTypes();
    if (exceptions.length > 0) {
      line +=
          Arrays.stream(exceptions)
              .map(Type::getTypeName)
              .collect(Collectors.joining(", ", " throws ", ""));
    }
    if (executable instanceof Method method && method.getDefaultValue() != null) {
      line += " default " + value(method.getDefaultValue());
    }
    return line;
  }

  private static String typeParameters(TypeVariable<?>[] variables) {
    if (variables.length == 0) {
      return "";
    }
    return Arrays.stream(variables)
            .map(
                v -> {
                  List<String> bounds =
                      Arrays.stream(v.getBounds())
                          .filter(b -> b != Object.class)
                          .map(Type::getTypeName)
                          .toList();
                  return bounds.isEmpty()
                      ? v.getName()
                      : v.getName() + " extends " + String.join(" & ", bounds);
                })
            .collect(Collectors.joining(", ", "<", ">"))
        + " ";
  }

  /** An annotation attribute's default, the same on every JVM. */
  private static String value(Object value) {
    if (value.getClass().isArray()) {
      return IntStream.range(0, Array.getLength(value))
          .mapToObj(i -> value(Array.get(value, i)))
          .collect(Collectors.joining(", ", "{", "}"));
    }
    if (value instanceof Class<?> type) {
      return type.getName() + ".class";
    }
    if (value instanceof String text) {
      return '"' + text + '"';
    }
    return String.valueOf(value);
  }

  private static String prefix(int modifiers) {
    String text = Modifier.toString(modifiers);
    return text.isEmpty() ? "" : text + " ";
  }
}
