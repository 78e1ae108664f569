// Command site builds schedlab's static site into a directory: the engine
// compiled to WebAssembly, Go's wasm support script from the same
// toolchain, the page and the worker script. The result can be served by
// any static file server (GitHub Pages included).
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

func main() {
	out := flag.String("out", "build/out", "output directory")
	flag.Parse()
	if err := build(*out); err != nil {
		fmt.Fprintln(os.Stderr, "site:", err)
		os.Exit(1)
	}
}

func build(out string) error {
	if err := os.MkdirAll(out, 0o755); err != nil {
		return err
	}
	goroot, err := goEnv("GOROOT")
	if err != nil {
		return err
	}
	cmd := exec.Command("go", "build", "-trimpath", "-ldflags=-s -w", "-o", filepath.Join(out, "engine.wasm"), "./wasm/engine")
	cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("building the engine: %w", err)
	}
	copies := map[string]string{
		filepath.Join(goroot, "lib", "wasm", "wasm_exec.js"): "wasm_exec.js",
		"index.html":      "index.html",
		"web/worker.js":   "worker.js",
		"web/favicon.svg": "favicon.svg",
	}
	for src, dst := range copies {
		if err := copyFile(src, filepath.Join(out, dst)); err != nil {
			return err
		}
	}
	// GitHub Pages' Jekyll would drop files starting with "_" or ".".
	return os.WriteFile(filepath.Join(out, ".nojekyll"), nil, 0o644)
}

func goEnv(key string) (string, error) {
	b, err := exec.Command("go", "env", key).Output()
	if err != nil {
		return "", fmt.Errorf("go env %s: %w", key, err)
	}
	return strings.TrimSpace(string(b)), nil
}

func copyFile(src, dst string) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	o, err := os.Create(dst)
	if err != nil {
		return err
	}
	if _, err := io.Copy(o, in); err != nil {
		o.Close()
		return err
	}
	return o.Close()
}
