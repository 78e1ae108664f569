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

.PHONY: all run site generate test test-native test-wasm test-e2e bench chromium vet clean

all: site

# The page's components: .vugu files -> web/0_components_gen.go (committed;
# a test checks it is current).
generate:
	$(GO) generate ./web

site: generate
	$(GO) run ./build/site -out $(OUT)

run: site
	$(GO) run ./build/serve -dir $(OUT) -addr $(ADDR)

test: vet test-native test-wasm test-e2e

vet:
	@test -z "$$(gofmt -l .)" || (echo "gofmt needed:"; gofmt -l .; exit 1)
	$(GO) vet ./...
	$(WASMENV) $(GO) vet ./...
	$(GO) tool staticcheck ./...

# Everything but the browser tests, which test-e2e runs against the site.
test-native:
	$(GO) test -count=1 -timeout 30m $$($(GO) list ./... | grep -v /build/e2e)

# The simulation core under WebAssembly in node: the same tests must pass.
test-wasm:
	$(WASMENV) $(GO) test -count=1 -timeout 40m -exec="$(WASMEXEC)" ./sim/...

# Browser and parity tests against the built site; they fail rather than
# skip here, so a missing browser cannot pass CI silently.
test-e2e: site chromium
	SCHEDLAB_SITE="$(abspath $(OUT))" SCHEDLAB_REQUIRE_E2E=1 $(GO) test -count=1 -timeout 30m -v ./build/e2e/

chromium:
	@command -v chromium >/dev/null 2>&1 || { \
	  echo "installing Debian's chromium for the browser tests"; \
	  $(SUDO) apt-get update -qq && \
	  ( DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq chromium || \
	    DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq -f chromium ); }

bench:
	$(GO) test -run '^$$' -bench . -benchtime 3x ./sim/...
	$(WASMENV) $(GO) test -run '^$$' -bench . -benchtime 1x -exec="$(WASMEXEC)" ./sim/engine/
	$(WASMENV) $(GO) test -run '^$$' -bench . -benchtime 1x -exec="$(WASMEXEC)" ./sim/policy/gavel/paper/
	$(WASMENV) $(GO) test -run '^$$' -bench . -benchtime 1x -exec="$(WASMEXEC)" ./sim/experiment/
	$(WASMENV) $(GO) test -run '^$$' -bench . -benchtime 1x -exec="$(WASMEXEC)" ./sim/policy/sjfbco/

clean:
	rm -rf $(OUT)
