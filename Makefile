# kube-harness — developer entry points. `make help` lists them.
SHELL := /usr/bin/env bash
MVNW  := ./mvnw -B -ntp
CLI   := target/kube-harness.jar
PROFILE ?= standard
OPERATOR_JAR := sample-operator/target/guestbook-operator.jar
IMG ?= guestbook-operator:latest
# Jib's base image; `make jre-image` builds a local one for machines that cannot pull it.
JIB_FROM ?= eclipse-temurin:17-jre
# kubectl from the PATH, else the one kube-harness provisions (built from Go modules like the rest).
KUBECTL = $$(command -v kubectl || java -jar $(CLI) provision --profile minimal --with-kubectl | sed -n 's/^kubectl=//p')

.PHONY: kind-image web-image kind kind-delete kind-e2e test-kind soak test-races test-generated test-container
.PHONY: bench-start
.PHONY: help test build cli provision provision-matrix cluster dev dev-smoke fmt clean bench bench-readme images lint-workflows operator jre-image image-smoke manifests install uninstall run docker-build deploy undeploy e2e

help: ## list targets
	@grep -E '^[a-z0-9-]+:.*##' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  %-12s %s\n", $$1, $$2}'

# Prepares what the suite needs first, or names what is missing within seconds
# (hack/test-prerequisites.sh: Docker engine, binaries, images, the second user), then runs it in
# the environment that script chose for this machine (target/test-env). Offline unless told
# otherwise: no test reaches beyond 127.0.0.1 or waits on a release download; binaries missing
# from the cache are built from Go modules through GOPROXY (docs/provisioning.md, "Offline").
test: $(CLI) ## run every test against a real API server (the README's test command); prepares what it needs first
	bash hack/test-prerequisites.sh
	set -a && . target/test-env && set +a && $(MVNW) verify

build: ## compile and package everything without tests
	$(MVNW) -DskipTests -Dspotless.check.skip=true package

# The CLI module (cli/) writes its runnable jar here, the path outside scripts use; it is rebuilt
# when the harness or the CLI changes.
$(CLI): $(shell find harness/src/main cli/src/main -type f 2>/dev/null) harness/pom.xml cli/pom.xml pom.xml
	$(MVNW) -q -DskipTests -Dspotless.check.skip=true -pl cli -am package

cli: $(CLI) ## build the runnable CLI jar

provision: $(CLI) ## resolve or build the control-plane binaries (first run: a Go build of several minutes)
	java -jar $(CLI) provision --profile $(PROFILE)

# The minors the Guestbook's behaviour tests run on (GuestbookIT's kubernetesVersions).
MATRIX ?= 1.35 1.36 1.37
provision-matrix: $(CLI) ## build every version of MATRIX once (about 5 min each on 2 cores, then cached)
	for v in $(MATRIX); do java -jar $(CLI) provision --profile simulated --kubernetes-version $$v || exit 1; done

cluster: $(CLI) ## start a local control plane until Ctrl-C; prints `export KUBECONFIG=...`
	java -jar $(CLI) up --profile $(PROFILE)

# make dev runs the simulated profile unless PROFILE is given: KWOK's fake nodes make the sample's
# pods Ready, so the Guestbook does too (on standard its Deployment stays 0/1: no kubelet).
DEV_PROFILE = $(if $(filter command line environment,$(origin PROFILE)),$(PROFILE),simulated)

dev: $(CLI) operator ## local control plane (simulated: pods go Ready) + Guestbook CRD + the operator, then prints the tutorial's steps; kubeconfig in target/dev/kubeconfig
	java -jar $(CLI) up --profile $(DEV_PROFILE) --kubeconfig target/dev/kubeconfig \
	  --install sample-operator/config/crd/bases \
	  --run "bash hack/dev-steps.sh java -jar $(OPERATOR_JAR) --health-probe-bind-address=127.0.0.1:8081"

dev-smoke: $(CLI) operator ## run make dev, the steps it prints (no warning allowed, the sample must be Ready), Ctrl-C, and check nothing is left
	bash hack/dev-smoke.sh

$(OPERATOR_JAR): $(shell find sample-operator/src/main -type f 2>/dev/null) sample-operator/pom.xml
	$(MVNW) -q -DskipTests -Dspotless.check.skip=true -pl sample-operator -am install

operator: $(OPERATOR_JAR) ## build the Guestbook operator's runnable jar

manifests: ## regenerate sample-operator/config/crd/bases from the Guestbook Java classes (fabric8 CRD generator)
	$(MVNW) -q -pl sample-operator -Pmanifests process-classes

install: $(CLI) ## install the Guestbook CRD into the current cluster (kubeconfig)
	$(KUBECTL) apply --server-side --force-conflicts -k sample-operator/config/crd

uninstall: $(CLI) ## remove the Guestbook CRD from the current cluster
	$(KUBECTL) delete --ignore-not-found -k sample-operator/config/crd

run: operator ## run the operator locally against the current kubeconfig (Ctrl-C stops it)
	java -jar $(OPERATOR_JAR) --health-probe-bind-address=127.0.0.1:8081

docker-build: operator ## build the operator image with Jib into the local Docker: make docker-build IMG=name:tag
	$(MVNW) -q -pl sample-operator jib:dockerBuild -Djib.to.image=$(IMG) -Djib.from.image=$(JIB_FROM) -Djib.disableUpdateChecks=true

images: $(CLI) ## build the container backend's images FROM scratch out of the provisioned binaries (needs Docker)
	bash hack/build-images.sh

jre-image: ## build kube-harness/jre:17, a FROM-scratch Java base image out of this JDK (for JIB_FROM=docker://kube-harness/jre:17)
	bash hack/build-jre-image.sh

image-smoke: $(CLI) ## run the operator image IMG against a local control plane: ready and reconciling
	bash hack/image-smoke.sh $(IMG)

deploy: $(CLI) ## deploy CRD, RBAC and the operator (image IMG) to the current cluster
	$(KUBECTL) kustomize sample-operator/config/default | sed 's|image: controller:latest|image: $(IMG)|' | $(KUBECTL) apply --server-side --force-conflicts -f -

undeploy: $(CLI) ## remove everything deploy installed
	$(KUBECTL) kustomize sample-operator/config/default | $(KUBECTL) delete --ignore-not-found -f -

e2e: ## the e2e suite: on the current cluster with USE_EXISTING_CLUSTER=true (kind), else on a local control plane
	$(TESTS_RAN_STAMP)
	$(MVNW) -Dspotless.check.skip=true -pl e2e -am verify -Dtest=NONE -Dsurefire.failIfNoSpecifiedTests=false \
	  -Dit.test='*E2E' -Dfailsafe.failIfNoSpecifiedTests=false
	bash hack/require-tests-ran.sh $(TESTS_RAN) e2e

# A tagged or filtered run that matched no test fails (hack/require-tests-ran.sh): the stamp marks
# when the run started, so reports of an earlier run do not count.
TESTS_RAN := target/tests-ran.stamp
TESTS_RAN_STAMP = @mkdir -p target && touch $(TESTS_RAN)

# kind (docs/kind.md): kind's node image assembled on this machine, a cluster from it, and the
# release path on it. KIND_IMAGE defaults to kube-harness/kind-node:v<the harness's version>; set
# it to a pulled kindest/node image where one can be pulled.
KIND_IMAGE ?=

kind-image: $(CLI) ## build kind's node image kube-harness/kind-node:v<version> here (first time: Go builds, debootstrap; then cached)
	bash hack/kind/build-node-image.sh

web-image: ## build kube-harness/guestbook-web:1, the Guestbook's web server for kind (no nginx image here)
	bash hack/kind/build-web-image.sh

kind: $(CLI) ## create the kind cluster kube-harness from KIND_IMAGE; kubeconfig in target/kind/kubeconfig
	bash hack/kind/cluster.sh create target/kind/kubeconfig $(KIND_IMAGE)

kind-delete: ## delete the kind cluster, its node container and its Docker network
	bash hack/kind/cluster.sh delete

test-kind: $(CLI) ## the tests tagged kind, on the kind backend (KindBackendIT, GuestbookOnKindIT, GeneratedProjectOnKindIT); needs make kind-image
	bash hack/kind/build-web-image.sh
	$(TESTS_RAN_STAMP)
	$(MVNW) -Dspotless.check.skip=true -pl harness,sample-operator,archetype -am verify -Dgroups=kind \
	  -Dkubeharness.excludedGroups=none -Dsurefire.failIfNoSpecifiedTests=false
	bash hack/require-tests-ran.sh $(TESTS_RAN) harness sample-operator archetype

# The container pass (.ci/run): make test runs every harness test on local and the container
# backend's own tests (pinned to it) already; this runs again only those that follow the suite's
# backend and behave differently on another (tag backend-sensitive; docs/ci.md lists them and why).
test-container: $(CLI) ## the harness tests whose behaviour depends on the backend (tag backend-sensitive), on the container backend: .ci/run's container pass (about 3 min)
	bash hack/test-prerequisites.sh
	$(TESTS_RAN_STAMP)
	set -a && . target/test-env && set +a && KUBE_HARNESS_BACKEND=container $(MVNW) -Dspotless.check.skip=true -pl harness verify \
	  -Dgroups=backend-sensitive -Dsurefire.failIfNoSpecifiedTests=false
	bash hack/require-tests-ran.sh $(TESTS_RAN) harness

test-generated: $(CLI) ## a project the archetype generates, used as its README says: its CI test step, make install/run/docker-build/build-installer (tag generated; about 9 min)
	$(TESTS_RAN_STAMP)
	set -a && . target/test-env && set +a && $(MVNW) -Dspotless.check.skip=true -pl archetype -am verify \
	  -Dgroups=generated -Dkubeharness.excludedGroups=none -Dsurefire.failIfNoSpecifiedTests=false
	bash hack/require-tests-ran.sh $(TESTS_RAN) archetype

soak: ## the soak suite: 200 start/stop cycles, 20 kill -9s, 4 JVMs at once, the Guestbook 30 min under edits and apiserver restarts (SOAK_ARGS to shorten)
	$(TESTS_RAN_STAMP)
	$(MVNW) -Dspotless.check.skip=true -pl harness,sample-operator -am verify -Dgroups=soak \
	  -Dkubeharness.excludedGroups=none -Dsurefire.failIfNoSpecifiedTests=false $(SOAK_ARGS)
	bash hack/require-tests-ran.sh $(TESTS_RAN) harness sample-operator

test-races: ## the race fixtures' proof in numbers: each plain test 100 runs green, each found seed 10 replays red (RaceFixturesProofIT, minutes)
	$(TESTS_RAN_STAMP)
	$(MVNW) -Dspotless.check.skip=true -pl harness verify -Dgroups=races \
	  -Dkubeharness.excludedGroups=none -Dsurefire.failIfNoSpecifiedTests=false
	bash hack/require-tests-ran.sh $(TESTS_RAN) harness

kind-e2e: $(CLI) ## on the kind cluster: docker-build IMG, kind load, deploy, e2e, undeploy
	bash hack/kind/e2e-on-kind.sh $(IMG)

lint-workflows: ## check .github/workflows with actionlint (from the Go module proxy)
	go run github.com/rhysd/actionlint/cmd/actionlint@v1.7.12 .github/workflows/*.yml

# The Spring and Quarkus samples have their frameworks' parents, not ours, and so no Spotless.
fmt: ## format all Java sources (google-java-format via Spotless)
	$(MVNW) -q spotless:apply -pl '!samples/spring-greeting,!samples/quarkus-greeting'

clean: ## remove build output
	$(MVNW) -q clean

# BENCH_ARGS=smoke: every scenario and peer once (n = 1) -> target/bench/smoke/, targets not
# enforced, fails when a scenario fails or a peer is not measured (.ci/run's bench step).
BENCH_ARGS ?=
bench: $(CLI) ## measure start-up, per-test overhead, reconcile latency, kill -9 cleanup, memory, and the peers (kube-api-test, envtest, JOSDK's extension) in the same run -> target/bench/results.{json,md}; fails on a missed target
	$(MVNW) -q -DskipTests -Dspotless.check.skip=true -pl harness -am test-compile dependency:build-classpath -Dmdep.outputFile=target/test-classpath.txt -Dmdep.includeScope=test
	@echo "binaries of every profile the bench starts, and kubectl, which kube-api-test will not start without (a Go build the first time)"
	java -jar $(CLI) provision --profile simulated --with-kubectl
	@echo "building the envtest peer (controller-runtime from the Go module proxy; minutes the first time)"
	mkdir -p target/bench && cd bench/peers/envtest && go build -o ../../../target/bench/envtest-peer .
	@echo "the Spring and Quarkus samples and their test class paths (spring_first_test_ms, quarkus_first_test_ms)"
	$(MVNW) -q -DskipTests -Dspotless.check.skip=true -pl harness,spring,quarkus,samples/spring-greeting,samples/quarkus-greeting package org.apache.maven.plugins:maven-dependency-plugin:3.7.0:build-classpath -Dmdep.outputFile=target/test-classpath.txt -Dmdep.includeScope=test
	java -cp harness/target/test-classes:harness/target/classes:$$(cat harness/target/test-classpath.txt) io.github.kubeharness.bench.HarnessBenchmark $(BENCH_ARGS)

bench-start: ## the start-up figures of make bench alone (minutes, not the whole run) -> target/bench/start/results.{json,md}: an A/B of a change to the start path
	$(MVNW) -q -DskipTests -Dspotless.check.skip=true -pl harness -am test-compile dependency:build-classpath -Dmdep.outputFile=target/test-classpath.txt -Dmdep.includeScope=test
	java -cp harness/target/test-classes:harness/target/classes:$$(cat harness/target/test-classpath.txt) io.github.kubeharness.bench.HarnessBenchmark start

bench-readme: ## copy the last `make bench` table (target/bench/results.md) into the README's Performance section; refuses one from a run that did not finish
	@test -f target/bench/results.md || { echo "no target/bench/results.md: run make bench first"; exit 1; }
	@test -f target/bench/started-at || { echo "no target/bench/started-at beside target/bench/results.md: the file is from a make bench that marks no start, so its run cannot be told finished. Run make bench to its end, then make bench-readme"; exit 1; }
	@test target/bench/results.md -nt target/bench/started-at || { echo "target/bench/results.md is older than the last make bench's start (target/bench/started-at): that run did not finish, and the file is from an earlier one. Run make bench to its end, then make bench-readme"; exit 1; }
	awk 'BEGIN{t=0} /<!-- bench:begin -->/{print; while((getline l < "target/bench/results.md")>0) print l; t=1; next} /<!-- bench:end -->/{t=0} !t' README.md > README.md.new && mv README.md.new README.md
