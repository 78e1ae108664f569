# schedlab: `make run` serves the app on http://localhost:8080,
# `make test` runs every test, `make site` builds the static site,
# `make bench` runs the benchmarks.

GO      ?= go
OUT     := build/out
GOROOT  := $(shell $(GO) env GOROOT)
WASMENV := GOOS=js GOARCH=wasm
WASMEXEC := $(GOROOT)/lib/wasm/go_js_wasm_exec
SUDO    := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
ADDR    ?= localhost:8080

.PHONY: code-editor all run site edge edge-run generate test test-native test-race test-wasm test-e2e bench chromium need-chromium need-axe vet clean reproduce axe

all: site

# The page's components: .vugu files -> web/0_components_gen.go (committed;
# a test of `make test` checks it is current without writing it). Run this
# after editing a .vugu file; no other target writes a tracked file.
generate:
	$(GO) generate ./web

site:
	$(GO) run ./build/site -out $(OUT)

# The script editor's code editor, web/codeeditor.js and .css (committed,
# so that site needs no npm): prism-code-editor bundled by esbuild from
# npm at the versions of build/codeeditor/package-lock.json.
code-editor:
	build/codeeditor/build.sh

run:
	@echo "make run: building the site into $(OUT), then serving it on http://$(ADDR)/"
	@$(MAKE) --no-print-directory site
	$(GO) run ./build/serve -dir $(OUT) -addr $(ADDR)

# need-chromium and need-axe come first, so that a machine without the
# browser or the accessibility checker learns it at once rather than after
# the other tests.
test: need-chromium need-axe vet test-native test-race test-wasm test-e2e

vet:
	@test -z "$$(gofmt -l .)" || (echo "gofmt needed:"; gofmt -l .; exit 1)
	$(GO) vet ./...
	$(WASMENV) $(GO) vet ./...
	$(GO) tool staticcheck ./...

# The JSON API on Cloudflare Workers (wasm/edge, docs/api.md): app.wasm
# without plots, the runtime files of syumai/workers and workerd's and
# wrangler's configuration, into build/edge; edge-run serves it in workerd
# from npm (the version wasm/edge's test pins, in the user's cache).
EDGE := build/edge
WORKERD_VERSION := 1.20261117.1
WORKERD := $(HOME)/.cache/schedlab/workerd-$(WORKERD_VERSION)/node_modules/.bin/workerd
edge:
	mkdir -p $(EDGE)
	$(GO) tool workers-assets-gen -mode=go -o $(EDGE)
	cd wasm/edge && $(WASMENV) $(GO) build -tags noplot -trimpath -ldflags="-s -w" -o $(abspath $(EDGE))/app.wasm .
	cp wasm/edge/config.capnp wasm/edge/wrangler.toml $(EDGE)/
	@echo "$(EDGE)/app.wasm: $$(wc -c < $(EDGE)/app.wasm) bytes, $$(gzip -6 -c $(EDGE)/app.wasm | wc -c) gzipped (Cloudflare's free plan: 3 MB)"

edge-run: edge
	@test -x $(WORKERD) || npm install --no-audit --no-fund --prefix $(HOME)/.cache/schedlab/workerd-$(WORKERD_VERSION) workerd@$(WORKERD_VERSION)
	@echo "the API in workerd at http://localhost:8787/v1/health (Ctrl-C stops)"
	$(WORKERD) serve $(EDGE)/config.capnp

# Everything but the browser tests, which test-e2e runs against the site.
test-native:
	SCHEDLAB_REQUIRE_EDGE=1 $(GO) test -count=1 -timeout 30m $$($(GO) list ./... | grep -v /build/e2e)

# The race detector over the engine, the experiment runner (its worker
# pool runs policies concurrently), the conformance check and the
# policies: 1 to 3 minutes on the 2-core machine. TestEmbeddedStudiesQuick
# is left to test-native: it runs every paper study in quick mode twice
# (about 2 minutes natively; under -race, on a machine loaded by other
# work, it had not finished after 18 minutes), and the runner's concurrency it would cover is covered by the
# other tests of sim/experiment (every embedded scenario on 2 and 3
# workers, a study on 2 workers, cancellation).
RACEPKGS := ./sim/engine/ ./sim/experiment/... ./sim/policy/...
test-race:
	$(GO) test -race -count=1 -timeout 30m -skip '^TestEmbeddedStudiesQuick$$' $(RACEPKGS)

# The simulation core under WebAssembly in node: the same tests must pass.
test-wasm:
	$(WASMENV) $(GO) test -count=1 -timeout 40m -exec="$(WASMEXEC)" ./sim/...

# Browser and parity tests against the built site; they fail rather than
# skip here, so a missing browser cannot pass CI silently.
test-e2e: need-chromium site
	SCHEDLAB_SITE="$(abspath $(OUT))" SCHEDLAB_REQUIRE_E2E=1 $(GO) test -count=1 -timeout 30m -v ./build/e2e/

# The browser the e2e tests drive: any of these on the PATH will do.
BROWSERS := chromium chromium-browser google-chrome

need-chromium:
	@for b in $(BROWSERS); do command -v $$b >/dev/null 2>&1 && exit 0; done; \
	  echo "make test: the browser tests need Chromium, and none of $(BROWSERS) is on the PATH."; \
	  echo "Run 'make chromium' once (it installs Debian's chromium with apt-get, through sudo when not root), then make test again."; \
	  exit 1

need-axe:
	@test -f build/axe/node_modules/axe-core/axe.min.js || { \
	  echo "make test: the browser tests check accessibility with axe-core, which is not in build/axe."; \
	  echo "Run 'make axe' once (it installs $(AXE) from npm into build/axe), then make test again."; \
	  exit 1; }

# Installs Debian's chromium when no browser is there (.ci/run calls it).
chromium:
	@for b in $(BROWSERS); do command -v $$b >/dev/null 2>&1 && { echo "$$b is installed"; exit 0; }; done; \
	  echo "installing Debian's chromium for the browser tests"; \
	  $(SUDO) apt-get update -qq && \
	  ( DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq chromium || \
	    DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq -f chromium )

# The committed reproduction summary: every paper figure in quick mode,
# REPRODUCTION.md and reproduction/ (report.json, figures as SVG). A test
# fails when it is stale with respect to the scenarios' checks.
reproduce:
	rm -rf reproduction/figures
	$(GO) run ./cmd/schedlab reproduce --quick --out reproduction --formats svg --markdown REPRODUCTION.md
	rm -f reproduction/report.md

# axe-core, the accessibility checker the browser tests inject into the
# page, from npm into build/axe (git-ignored); .ci/run calls it.
AXE := axe-core@4.14.1
axe:
	@test -f build/axe/node_modules/axe-core/axe.min.js && echo "axe-core is installed" || \
	  npm install --no-audit --no-fund --prefix build/axe $(AXE)

bench:
	$(GO) test -run '^$$' -bench . -benchtime 3x ./sim/...
	$(WASMENV) $(GO) test -run '^$$' -bench . -benchtime 1x -exec="$(WASMEXEC)" ./sim/engine/
	$(WASMENV) $(GO) test -run '^$$' -bench . -benchtime 1x -exec="$(WASMEXEC)" ./sim/policy/gavel/paper/
	$(WASMENV) $(GO) test -run '^$$' -bench . -benchtime 1x -exec="$(WASMEXEC)" ./sim/experiment/
	$(WASMENV) $(GO) test -run '^$$' -bench . -benchtime 1x -exec="$(WASMEXEC)" ./sim/policy/sjfbco/
	$(WASMENV) $(GO) test -run '^$$' -bench . -benchtime 3x -exec="$(WASMEXEC)" ./sim/solver/lp/
	# every Gavel figure in full, once (about a quarter of an hour)
	$(GO) test -run '^$$' -bench GavelStudiesFull -benchtime 1x -timeout 90m ./cmd/schedlab/

clean:
	rm -rf $(OUT)
