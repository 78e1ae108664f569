// Command workers writes the Workers bundle of schedlab's JSON API into a
// directory (`make edge`, and wasm/edge's test): app.wasm (wasm/edge, as
// build/wasmsize builds it), its worker.mjs, Go's wasm_exec.js from the
// same toolchain, and workerd's and wrangler's configuration. It prints
// the module's size against its budget. Run it from the repository's
// root.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/schedlab/schedlab/build/wasmsize"
)

func main() {
	out := flag.String("out", "build/edge", "output directory")
	flag.Parse()
	if err := bundle(*out); err != nil {
		fmt.Fprintln(os.Stderr, "workers:", err)
		os.Exit(1)
	}
}

func bundle(out string) error {
	root, err := wasmsize.Root()
	if err != nil {
		return err
	}
	out, err = filepath.Abs(out)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(out, 0o755); err != nil {
		return err
	}
	m, _ := wasmsize.Lookup("edge")
	app := filepath.Join(out, m.File)
	if err := m.Build(context.Background(), root, app); err != nil {
		return err
	}
	goroot, err := goEnv("GOROOT")
	if err != nil {
		return err
	}
	for src, dst := range map[string]string{
		filepath.Join(root, "wasm", "edge", "worker.mjs"):    "worker.mjs",
		filepath.Join(root, "wasm", "edge", "config.capnp"):  "config.capnp",
		filepath.Join(root, "wasm", "edge", "wrangler.toml"): "wrangler.toml",
		filepath.Join(goroot, "lib", "wasm", "wasm_exec.js"): "wasm_exec.js",
	} {
		data, err := os.ReadFile(src)
		if err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(out, dst), data, 0o644); err != nil {
			return err
		}
	}
	data, err := os.ReadFile(app)
	if err != nil {
		return err
	}
	gz, err := wasmsize.Gzip6(data)
	if err != nil {
		return err
	}
	fmt.Printf("%s: %d bytes, %d gzipped (gzip -6; its budget %d, Cloudflare's free plan 3 MB)\n", app, len(data), len(gz), m.Budget)
	return nil
}

func goEnv(key string) (string, error) {
	b, err := exec.Command("go", "env", key).Output()
	if err != nil {
		return "", fmt.Errorf("go env %s: %w", key, err)
	}
	return strings.TrimSpace(string(b)), nil
}
