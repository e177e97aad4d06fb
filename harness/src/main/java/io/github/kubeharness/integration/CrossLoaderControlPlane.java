package io.github.kubeharness.integration;

import io.github.kubeharness.ControlPlane;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.lang.reflect.RecordComponent;

/**
 * This class loader's view of a control plane that another class loader's copy of kube-harness
 * runs: the two {@link ControlPlane} interfaces are different types, so a call is passed on by
 * name. What crosses is what both loaders share — JDK types (strings, paths, lists, optionals),
 * kube-harness enums by name, records of those rebuilt here; a client is built here from the
 * kubeconfig. What cannot cross (a {@code Faults} handle, CRD classes of this loader) fails naming
 * the method.
 */
final class CrossLoaderControlPlane implements InvocationHandler {

  private final Object foreign;

  private CrossLoaderControlPlane(Object foreign) {
    this.foreign = foreign;
  }

  /** {@code foreign}, a ControlPlane of another class loader, as this loader's ControlPlane. */
  static ControlPlane of(Object foreign) {
    if (foreign instanceof ControlPlane own) {
      return own;
    }
    return (ControlPlane)
        Proxy.newProxyInstance(
            ControlPlane.class.getClassLoader(),
            new Class<?>[] {ControlPlane.class},
            new CrossLoaderControlPlane(foreign));
  }

  @Override
  public Object invoke(Object proxy, Method method, Object[] args) throws Throwable {
    switch (method.getName()) {
      case "equals":
        return proxy == args[0];
      case "hashCode":
        return System.identityHashCode(proxy);
      case "toString":
        return "ControlPlane of another class loader: " + foreign;
      // Built here from the kubeconfig, so the client is this loader's fabric8.
      case "clientConfig", "newClient":
        return InvocationHandler.invokeDefault(proxy, method, args);
      default:
        break;
    }
    Object[] given = args == null ? new Object[0] : args;
    for (Object arg : given) {
      if (!crosses(arg)) {
        throw unsupported(method, "its argument " + arg + " is of this class loader");
      }
    }
    Method target = foreignMethod(method);
    return translate(
        call(foreign.getClass().getClassLoader(), () -> target.invoke(foreign, given)),
        method.getReturnType(),
        method);
  }

  /** A reflective call into the other loader. */
  interface Call {
    Object run() throws ReflectiveOperationException;
  }

  /**
   * Runs {@code call} with {@code loader} as the thread's context class loader: fabric8 finds its
   * HTTP client and model classes through it (ServiceLoader), and would otherwise find the calling
   * loader's copies, which are not its types. Threads the call starts inherit it too.
   */
  static Object call(ClassLoader loader, Call call) throws Throwable {
    Thread thread = Thread.currentThread();
    ClassLoader before = thread.getContextClassLoader();
    thread.setContextClassLoader(loader);
    try {
      return call.run();
    } catch (InvocationTargetException e) {
      // The other loader's exception, message and all: its type is not ours to catch by.
      throw e.getCause();
    } finally {
      thread.setContextClassLoader(before);
    }
  }

  /** The method of the other loader's ControlPlane interface (public, unlike its classes). */
  private Method foreignMethod(Method method) throws ClassNotFoundException {
    Class<?> theirs =
        Class.forName(ControlPlane.class.getName(), false, foreign.getClass().getClassLoader());
    Class<?>[] types = method.getParameterTypes();
    for (Method candidate : theirs.getMethods()) {
      if (candidate.getName().equals(method.getName())
          && candidate.getParameterCount() == types.length
          && sameNames(candidate.getParameterTypes(), types)) {
        return candidate;
      }
    }
    throw unsupported(method, theirs.getName() + " of the other loader has no such method");
  }

  private static boolean sameNames(Class<?>[] theirs, Class<?>[] ours) {
    for (int i = 0; i < ours.length; i++) {
      if (!theirs[i].getName().equals(ours[i].getName())) {
        return false;
      }
    }
    return true;
  }

  /** Whether {@code arg} means the same in the other loader: JDK types only. */
  private static boolean crosses(Object arg) {
    if (arg == null || arg.getClass().getClassLoader() == null) {
      if (arg instanceof Iterable<?> items) {
        for (Object item : items) {
          // CRD classes of this loader would be read with the other loader's annotations.
          if (item instanceof Class<?> type && type.getClassLoader() != null) {
            return false;
          }
        }
      }
      return true;
    }
    return false;
  }

  @SuppressWarnings({"unchecked", "rawtypes"})
  private static Object translate(Object result, Class<?> type, Method method) throws Exception {
    if (result == null || type == void.class || type.isPrimitive() || type.isInstance(result)) {
      return result;
    }
    if (type.isEnum()) {
      return Enum.valueOf((Class<Enum>) type, ((Enum<?>) result).name());
    }
    if (type.isRecord()) {
      RecordComponent[] components = type.getRecordComponents();
      Object[] values = new Object[components.length];
      Class<?>[] types = new Class<?>[components.length];
      for (int i = 0; i < components.length; i++) {
        Method accessor = result.getClass().getMethod(components[i].getName());
        accessor.setAccessible(true);
        types[i] = components[i].getType();
        values[i] = translate(accessor.invoke(result), types[i], method);
      }
      return type.getConstructor(types).newInstance(values);
    }
    throw unsupported(method, "it returns " + type.getName() + ", which has no JDK form");
  }

  private static UnsupportedOperationException unsupported(Method method, String why) {
    return new UnsupportedOperationException(
        "ControlPlane."
            + method.getName()
            + "(...) cannot reach the control plane shared by another class loader (Quarkus"
            + " restarts its application in new class loaders; kube-harness keeps one control"
            + " plane for the JVM): "
            + why
            + ". Use @ControllerTest for it, or CRD files instead of classes.");
  }
}
