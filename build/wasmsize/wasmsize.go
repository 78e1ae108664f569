// Package wasmsize builds schedlab's two WebAssembly modules as they
// ship, measures them as they travel and holds their size budgets.
//
// The modules are the page and the simulator it runs in Web Workers, one
// module with two roles (schedlab.wasm, wasm/browser), and the JSON API on
// Cloudflare Workers (app.wasm, wasm/edge). A browser downloads the first
// brotli-compressed (build/site writes the .br copies that build/serve and
// nginx send), so its budget is on brotli; Cloudflare
// limits a Worker's gzipped size (3 MB on the free plan), so the API's
// budget is on gzip. build/site and wasm/edge's test build through this
// package, and `make sizes` (build/sizes) prints the figures and writes
// them into docs/development.md, which this package's test checks.
package wasmsize

import (
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/andybalholm/brotli"
)

// Encoding is how a module travels.
type Encoding string

const (
	Brotli Encoding = "brotli"
	Gzip   Encoding = "gzip"
)

// MB is a megabyte as the budgets and the docs count it: 10⁶ bytes.
const MB = 1_000_000

// A Module is one WebAssembly build.
type Module struct {
	Name    string   // "browser" or "edge"
	File    string   // the file it ships as (the site adds a content hash)
	Package string   // the main package, relative to the repository root
	Tags    []string // build tags
	What    string   // what it is, for the docs' table
	Served  Encoding // how it travels
	// Budget is the most its Served size may be, in bytes. The browser's
	// module keeps about 0.48 MB for growth; the API's keeps 0.3 MB under
	// Cloudflare's 3 MB (it grew from 2.50 MB with the claims' checks,
	// which every API server carries with the scenarios, and since with
	// performance work), and 0.18 MB for growth since the modules' data
	// segments are joined (JoinData; docs/development.md#sizes).
	Budget int64
}

// Modules are the two builds. The browser's builds with gonum/plot's
// minimal tag, which leaves out its PDF, EPS and TeX back ends (the page
// draws SVG and PNG); the API's with noplot (no figures at all, see
// sim/experiment), nohttp (no net/http, see sim/api) and noscript (no
// Starlark interpreter, see sim/policy/script: scripts run in the page and
// the CLI).
var Modules = []Module{
	// The page and its engine workers were two modules, ui.wasm (2.98 MB
	// brotli) and engine.wasm (3.52 MB), each with its own copy of the Go
	// runtime, the standard library, the scenario code and the Starlark
	// interpreter; as one they are 4.46 MB, downloaded and compiled once.
	{Name: "browser", File: "schedlab.wasm", Package: "./wasm/browser", Tags: []string{"minimal", "lazyfaces"},
		What: "the page and its simulator in Web Workers (wasm/browser)", Served: Brotli, Budget: 4_600_000},
	{Name: "edge", File: "app.wasm", Package: "./wasm/edge", Tags: []string{"noplot", "nohttp", "noscript"},
		What: "the JSON API on Cloudflare Workers (wasm/edge)", Served: Gzip, Budget: 2_700_000},
}

// Lookup returns the module of that name.
func Lookup(name string) (Module, bool) {
	for _, m := range Modules {
		if m.Name == name {
			return m, true
		}
	}
	return Module{}, false
}

// BuildArgs are the arguments of go build that write the module to out.
func (m Module) BuildArgs(out string) []string {
	args := []string{"build", "-trimpath", "-ldflags=-s -w"}
	if len(m.Tags) > 0 {
		args = append(args, "-tags", strings.Join(m.Tags, ","))
	}
	return append(args, "-o", out, m.Package)
}

// Build compiles the module into out, running go in root (the
// repository's root directory).
func (m Module) Build(ctx context.Context, root, out string) error {
	cmd := exec.CommandContext(ctx, "go", m.BuildArgs(out)...)
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	if b, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("building %s: %v\n%s", m.Package, err, b)
	}
	// The linker cuts the module's data into segments wherever it meets
	// eight zero bytes, which compresses badly (JoinGap); the module
	// ships with them joined, checked to make the same memory.
	linked, err := os.ReadFile(out)
	if err != nil {
		return err
	}
	joined, err := JoinData(linked, JoinGap)
	if err != nil {
		return fmt.Errorf("%s: joining its data segments: %w", m.File, err)
	}
	if err := SameData(linked, joined); err != nil {
		return fmt.Errorf("%s: its data segments joined: %w", m.File, err)
	}
	return os.WriteFile(out, joined, 0o755)
}

// Root is the repository's root directory, found from the working
// directory through go env GOMOD.
func Root() (string, error) {
	b, err := exec.Command("go", "env", "GOMOD").Output()
	if err != nil {
		return "", fmt.Errorf("go env GOMOD: %w", err)
	}
	mod := strings.TrimSpace(string(b))
	if mod == "" || mod == os.DevNull {
		return "", fmt.Errorf("not inside schedlab's module")
	}
	return filepath.Dir(mod), nil
}

// Sizes are a module's sizes in bytes.
type Sizes struct {
	Raw    int64
	Gzip   int64 // gzip -9, as the site's .gz copy
	Brotli int64 // brotli 6, as the site's .br copy
	// Gzip6 is gzip at its default level, 6: a little larger than -9,
	// and what the API's budget counts, since it is not known which level
	// Cloudflare measures with.
	Gzip6 int64
}

// Measure compresses data as it travels.
func Measure(data []byte) (Sizes, error) {
	s := Sizes{Raw: int64(len(data))}
	for _, c := range []struct {
		n  *int64
		fn func([]byte) ([]byte, error)
	}{
		{&s.Gzip, GzipBest},
		{&s.Brotli, BrotliSite},
		{&s.Gzip6, Gzip6},
	} {
		b, err := c.fn(data)
		if err != nil {
			return Sizes{}, err
		}
		*c.n = int64(len(b))
	}
	return s, nil
}

// ServedSize is the size the module's budget counts.
func (m Module) ServedSize(s Sizes) int64 {
	if m.Served == Gzip {
		return s.Gzip6
	}
	return s.Brotli
}

// GzipBest is gzip at its best compression, the site's .gz copies.
func GzipBest(data []byte) ([]byte, error) { return gzipLevel(data, gzip.BestCompression) }

// Gzip6 is gzip at its default level, on which the API's budget counts.
func Gzip6(data []byte) ([]byte, error) { return gzipLevel(data, gzip.DefaultCompression) }

func gzipLevel(data []byte, level int) ([]byte, error) {
	var buf bytes.Buffer
	w, err := gzip.NewWriterLevel(&buf, level)
	if err != nil {
		return nil, err
	}
	if _, err := w.Write(data); err != nil {
		return nil, err
	}
	if err := w.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// BrotliSite compresses as the site's .br copies: quality 6 with a
// 16 MiB window, within a few percent of gzip's time and about a fifth
// smaller on the engine; the highest quality (11) saves a further tenth
// but takes minutes.
func BrotliSite(data []byte) ([]byte, error) { return BrotliQuality(data, 6) }

// BrotliQuality compresses at that quality (0 to 11) with a 16 MiB
// window, the largest a browser accepts.
func BrotliQuality(data []byte, quality int) ([]byte, error) {
	var buf bytes.Buffer
	w := brotli.NewWriterOptions(&buf, brotli.WriterOptions{Quality: quality, LGWin: 24})
	if _, err := w.Write(data); err != nil {
		return nil, err
	}
	if err := w.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
