# kube-harness — developer entry points. `make help` lists them.
SHELL := /usr/bin/env bash
MVNW  := ./mvnw -B -ntp
CLI   := harness/target/kube-harness.jar
PROFILE ?= standard

.PHONY: help test build cli provision cluster dev fmt clean bench images

help: ## list targets
	@grep -E '^[a-z-]+:.*##' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  %-12s %s\n", $$1, $$2}'

test: ## run every test against a real API server (the README's test command)
	$(MVNW) verify

build: ## compile and package everything without tests
	$(MVNW) -DskipTests -Dspotless.check.skip=true package

$(CLI): $(shell find harness/src/main -type f 2>/dev/null) harness/pom.xml pom.xml
	$(MVNW) -q -DskipTests -Dspotless.check.skip=true -pl harness -am package

cli: $(CLI) ## build the runnable CLI jar

provision: $(CLI) ## resolve or build the control-plane binaries (first run: a Go build of several minutes)
	java -jar $(CLI) provision --profile $(PROFILE)

cluster: $(CLI) ## start a local control plane until Ctrl-C; prints `export KUBECONFIG=...`
	java -jar $(CLI) up --profile $(PROFILE)

dev: $(CLI) ## local control plane with its kubeconfig in target/dev/kubeconfig (the Guestbook operator joins it with issue 5)
	java -jar $(CLI) up --profile $(PROFILE) --kubeconfig target/dev/kubeconfig

images: $(CLI) ## build the container backend's images FROM scratch out of the provisioned binaries (needs Docker)
	bash hack/build-images.sh

fmt: ## format all Java sources (google-java-format via Spotless)
	$(MVNW) -q spotless:apply

clean: ## remove build output
	$(MVNW) -q clean

bench: ## measure start-up, per-test overhead, reconcile latency, kill -9 cleanup -> target/bench/results.{json,md}
	$(MVNW) -q -DskipTests -Dspotless.check.skip=true -pl harness -am test-compile dependency:build-classpath -Dmdep.outputFile=target/test-classpath.txt -Dmdep.includeScope=test
	java -cp harness/target/test-classes:harness/target/classes:$$(cat harness/target/test-classpath.txt) io.github.kubeharness.bench.HarnessBenchmark
