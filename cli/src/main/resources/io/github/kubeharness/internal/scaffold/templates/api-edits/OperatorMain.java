    operator.register(new {{package}}.controller.{{kind}}Reconciler());
