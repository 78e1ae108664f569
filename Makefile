# schedlab: `make run` serves the app on http://localhost:8080,
# `make test` runs every test (installing the browser, axe-core and
# workerd first when they are missing), `make site` builds the static
# site, `make bench` runs the benchmarks, `make sizes` measures the two
# WebAssembly modules against their budgets.

GO      ?= go
OUT     := build/out
GOROOT  := $(shell $(GO) env GOROOT)
WASMENV := GOOS=js GOARCH=wasm
WASMEXEC := $(GOROOT)/lib/wasm/go_js_wasm_exec
SUDO    := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
ADDR    ?= localhost:8080

.PHONY: code-editor all run site edge edge-run sizes generate test test-native test-race test-wasm test-e2e bench need need-chromium need-axe need-workerd vet clean reproduce

all: site

# The page's components: .vugu files -> web/0_components_gen.go (committed;
# a test of `make test` checks it is current without writing it). Run this
# after editing a .vugu file; besides it only make reproduce and make sizes
# write tracked files.
generate:
	$(GO) generate ./web

# The module's brotli copy is made at quality 11 (the smallest, a minute
# or two, once per module version: build/site keeps it in the user's
# cache); SITEFLAGS="-wasm-brotli 6" takes seconds.
site:
	$(GO) run ./build/site -out $(OUT) $(SITEFLAGS)

# The script editor's code editor, web/codeeditor.js and .css (committed,
# so that site needs no npm): prism-code-editor bundled by esbuild from
# npm at the versions of build/codeeditor/package-lock.json.
code-editor:
	build/codeeditor/build.sh

# Served from this machine, the module's size costs nothing: its brotli
# copy is made at quality 6, in seconds.
run:
	@echo "make run: building the site into $(OUT), then serving it on http://$(ADDR)/"
	@$(MAKE) --no-print-directory site SITEFLAGS="-wasm-brotli 6"
	$(GO) run ./build/serve -dir $(OUT) -addr $(ADDR)

# The tools the tests need are installed first, each only when missing
# (see need below), so that a fresh clone passes with make test alone.
test: need vet test-native test-race test-wasm test-e2e

vet:
	@test -z "$$(gofmt -l .)" || (echo "gofmt needed:"; gofmt -l .; exit 1)
	$(GO) vet ./...
	$(WASMENV) $(GO) vet ./...
	$(GO) tool staticcheck ./...

# The JSON API on Cloudflare Workers (wasm/edge, docs/api.md): app.wasm
# without plots or net/http, its worker.mjs, Go's wasm_exec.js and
# workerd's and wrangler's configuration, into build/edge (build/workers);
# edge-run serves it in workerd from npm (the version wasm/edge's test
# pins, in the user's cache).
EDGE := build/edge
edge:
	$(GO) run ./build/workers -out $(EDGE)

edge-run: need-workerd edge
	@echo "the API in workerd at http://localhost:8787/v1/health (Ctrl-C stops)"
	$(WORKERD) serve $(EDGE)/config.capnp

# The two WebAssembly modules against their size budgets (build/wasmsize),
# and their figures written into docs/development.md.
sizes:
	$(GO) run ./build/sizes -docs

# Everything but the browser tests, which test-e2e runs against the site.
test-native:
	SCHEDLAB_REQUIRE_EDGE=1 SCHEDLAB_WORKERD=$(WORKERD) $(GO) test -count=1 -timeout 30m $$($(GO) list ./... | grep -v /build/e2e)

# The race detector over the engine, the experiment runner (its worker
# pool runs policies concurrently), the conformance check, the policies,
# the schema's type cache and the JSON API (one handler serving requests
# concurrently), then over schedlab serve and the remote sweeps, which
# run the test binary as a server process (built with -race too, so a
# race in the server fails the test). TestEmbeddedStudiesQuick is left to
# test-native: it runs every paper study in quick mode twice (about 2
# minutes natively; under -race, on a machine loaded by other work, it
# had not finished after 18 minutes), and the runner's concurrency it
# would cover is covered by the other tests of sim/experiment (every
# embedded scenario on 2 and 3 workers, a study on 2 workers,
# cancellation). Tests that bound CPU or wall time, or that mostly wait,
# skip themselves under -race (raceDetector in their packages), and so
# does sim/policy's comparison of the kept running order with the full
# order: one goroutine, nothing for the detector, and 385 s under it on a
# quiet machine (30 minutes, the phase's timeout, on a loaded one). Of
# cmd/schedlab only three tests run here: a server under 50 concurrent
# runs, serve's routes and a study spread over two serve processes; its
# other commands run one study at a time, whose concurrency is
# sim/experiment's, and the remote client's retries, timeouts and
# cancellations run under -race in sim/api (TestRemoteRetries,
# TestRemoteMatchesLocal). The remote fault catalogue (81 s more under
# -race, mostly waiting for servers killed or frozen) runs natively in
# test-native; `go test -race -run 'Serve|Remote' ./cmd/schedlab/` runs
# it under -race too.
# Measured on the 2-core machine under a load average of about 28 from
# other work: sim/schema 14 s, sim/api 113 s and these cmd/schedlab
# tests 76 s (earlier, at a load of about 20: 38 minutes in all, of
# which sim/experiment/conformance 13.4 minutes). The conformance suite
# now runs 2 of its 9 seeds under -race (its raceDetector): 88 s on a
# quiet machine.
RACEPKGS := ./sim/engine/ ./sim/experiment/... ./sim/policy/... ./sim/schema/ ./sim/api/...
test-race:
	$(GO) test -race -count=1 -timeout 30m -skip '^TestEmbeddedStudiesQuick$$' $(RACEPKGS)
	$(GO) test -race -count=1 -timeout 30m -run '^(TestServe|TestServeUnderLoad|TestRunRemote)$$' ./cmd/schedlab/

# The simulation core under WebAssembly in node: the same tests must pass;
# and the page's module's js-only tests (wasm/browser: the engine worker's
# collector).
test-wasm:
	$(WASMENV) $(GO) test -count=1 -timeout 40m -exec="$(WASMEXEC)" ./sim/... ./wasm/browser/

# Browser and parity tests against the built site; they fail rather than
# skip here, so a missing browser cannot pass CI silently.
test-e2e: need-chromium need-axe site
	SCHEDLAB_SITE="$(abspath $(OUT))" SCHEDLAB_REQUIRE_E2E=1 $(GO) test -count=1 -timeout 30m -v ./build/e2e/

# What the tests need beyond Go and node, each installed only when it is
# missing, saying what it installs: a browser for the browser tests
# (Debian's chromium, with apt-get, through sudo when not root), axe-core
# for the accessibility test (npm, into build/axe, git-ignored) and
# workerd for the test of the API on Cloudflare's Workers runtime (npm,
# about 160 MB, once, into the user's cache, where wasm/edge's test looks).
need: need-chromium need-axe need-workerd

# The browser the e2e tests drive: any of these on the PATH will do.
BROWSERS := chromium chromium-browser google-chrome

need-chromium:
	@for b in $(BROWSERS); do command -v $$b >/dev/null 2>&1 && exit 0; done; \
	  echo "make test: none of $(BROWSERS) is on the PATH; installing Debian's chromium for the browser tests ($(strip $(SUDO) apt-get install chromium))"; \
	  $(SUDO) apt-get update -qq && \
	  ( DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq chromium || \
	    DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq -f chromium )

AXE := axe-core@4.14.1
need-axe:
	@test -f build/axe/node_modules/axe-core/axe.min.js || { \
	  command -v npm >/dev/null 2>&1 || { echo "make test: the accessibility test needs $(AXE) from npm, and npm is not on the PATH: install Node.js with npm"; exit 1; }; \
	  echo "make test: installing $(AXE) from npm into build/axe for the accessibility test"; \
	  npm install --no-audit --no-fund --silent --prefix build/axe $(AXE); }

# WORKERD_VERSION is wasm/edge's WorkerdVersion (its test checks).
WORKERD_VERSION := 1.20261117.1
WORKERD_PREFIX := $(or $(XDG_CACHE_HOME),$(HOME)/.cache)/schedlab/workerd-$(WORKERD_VERSION)
WORKERD := $(WORKERD_PREFIX)/node_modules/.bin/workerd
need-workerd:
	@test -x $(WORKERD) || { \
	  command -v npm >/dev/null 2>&1 || { echo "make test: the test of the API on Cloudflare's Workers runtime needs workerd from npm, and npm is not on the PATH: install Node.js with npm"; exit 1; }; \
	  echo "make test: installing workerd@$(WORKERD_VERSION) from npm into $(WORKERD_PREFIX) (about 160 MB, once) for the test of the API on Cloudflare's Workers runtime"; \
	  npm install --no-audit --no-fund --silent --prefix $(WORKERD_PREFIX) workerd@$(WORKERD_VERSION); }

# The committed record: every paper figure in full mode (the papers'
# seeds, sweep values and sizes), REPRODUCTION.md and reproduction/
# (report.json with every figure's values and series, figures as SVG).
# About half an hour on 2 cores. A test of make test fails when the record
# is stale (a scenario file or a check id changed since it was made)
# without running it again.
reproduce:
	rm -rf reproduction/figures
	$(GO) run ./cmd/schedlab reproduce --out reproduction --formats svg --markdown REPRODUCTION.md
	rm -f reproduction/report.md

# The mutation pass over the papers' formulas (docs/development.md): each
# mutant of build/mutate/mutants.txt against its package's unit tests,
# two at a time: 16 minutes on 2 cores. Not part of make test.
.PHONY: mutate
mutate:
	$(GO) run ./build/mutate -j 2

# The Philly log as Pollux's artifact ships it, for make bench's table.
PHILLY ?= ../shared/data/pollux/traces/philly.csv
# A HiGHS timing program (build/benchreport/highstime, docs/lp.md) for the
# LP rows: `make bench HIGHS=/path/to/highstime` times HiGHS in the same
# run as ours; without it those rows use HiGHS figures from another day.
HIGHS ?=

bench:
	$(GO) test -run '^$$' -bench . -benchtime 3x ./sim/...
	$(WASMENV) $(GO) test -run '^$$' -bench . -benchtime 1x -exec="$(WASMEXEC)" ./sim/engine/
	$(WASMENV) $(GO) test -run '^$$' -bench . -benchtime 1x -exec="$(WASMEXEC)" ./sim/policy/gavel/paper/
	$(WASMENV) $(GO) test -run '^$$' -bench . -benchtime 1x -exec="$(WASMEXEC)" ./sim/experiment/
	$(WASMENV) $(GO) test -run '^$$' -bench . -benchtime 1x -exec="$(WASMEXEC)" ./sim/policy/sjfbco/
	$(WASMENV) $(GO) test -run '^$$' -bench . -benchtime 3x -exec="$(WASMEXEC)" ./sim/solver/lp/
	# the performance table: each row beside its target and a peer's figure
	# or a limit, written into docs/development.md; every Gavel study in
	# full (a quarter of an hour), the whole Philly log under every policy
	# when ../shared/data has it, and the page's cold loads when the site
	# is built (make site), and HiGHS timed in the same run when HIGHS
	# names its timing program
	$(GO) run ./build/benchreport -docs -gavel \
		$(if $(wildcard $(PHILLY)),-philly $(PHILLY)) \
		$(if $(wildcard $(OUT)/index.html),-site $(OUT)) \
		$(if $(HIGHS),-highs $(HIGHS))

clean:
	rm -rf $(OUT)
