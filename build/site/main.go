// Command site builds schedlab's static site into a directory: schedlab's
// one WebAssembly module (wasm/browser: the page, and the engine in its
// Web Workers), Go's wasm
// support script from the same toolchain, the worker script, the style
// sheet, index.html and the default scenario's results computed at build
// time (web/prebuild) with the page's first screen showing them drawn into
// index.html (web/snapshot). Every asset but index.html and the icon gets its
// content hash in its name and index.html names them, so a browser (or
// GitHub Pages' ten-minute cache) never mixes versions. All URLs are
// relative: the folder can be served from any path by any static server.
package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"flag"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"text/template"
	"time"
	"unicode/utf16"

	sansbold "github.com/go-fonts/liberation/liberationsansbold"
	sansregular "github.com/go-fonts/liberation/liberationsansregular"

	"github.com/schedlab/schedlab/build/wasmsize"
	"github.com/schedlab/schedlab/web/app"
	"github.com/schedlab/schedlab/web/prebuild"
	"github.com/schedlab/schedlab/web/snapshot"
)

func main() {
	out := flag.String("out", "build/out", "output directory")
	wasmQuality := flag.Int("wasm-brotli", 11, "brotli quality (0 to 11) of the WebAssembly module's .br copy: 11, the smallest, takes a minute or two once per module (kept in the user's cache); the other files use 6")
	flag.Parse()
	if *wasmQuality < 0 || *wasmQuality > 11 {
		fmt.Fprintf(os.Stderr, "site: -wasm-brotli is %d; brotli's qualities are 0 to 11\n", *wasmQuality)
		os.Exit(2)
	}
	// The first build compiles for about a minute: say what is going on.
	start := time.Now()
	fmt.Println("site: compiling the page and its simulator (wasm/browser) to WebAssembly; about a minute the first time, seconds after that")
	if err := build(*out, *wasmQuality); err != nil {
		fmt.Fprintln(os.Stderr, "site:", err)
		os.Exit(1)
	}
	fmt.Printf("site: wrote %s in %.0f s\n", *out, time.Since(start).Seconds())
}

// Assets are the hashed file names index.html refers to.
type Assets struct {
	Module, Worker, WasmExec, CSS, Boot, Vugu string
	// Code and CodeCSS are the script policies' code editor (see
	// build/codeeditor).
	Code, CodeCSS string
	// Preview holds the default scenario's results computed now (see
	// web/prebuild), which the page shows while its engine loads;
	// PhonePreview the same drawn for a phone's screen.
	Preview, PhonePreview string
	// Faces are the figures' two fonts, Liberation Sans Regular and Bold,
	// separated by a space: the module leaves them out (its lazyfaces
	// tag, see sim/plot's FaceData) and each engine worker fetches them
	// when it first draws, so that a visit that only reads the results
	// drawn here does not download them.
	Faces string
	// ModuleSize is the module's size in bytes, for the download
	// progress that web/boot.js shows.
	ModuleSize int64
	// Snapshot is the page's first screen as the page draws it once it
	// has shown the build-time results (web/snapshot): the inner HTML of
	// its root element, whose attributes are SnapshotAttrs; index.html
	// holds it in the page's mount point, so that the results are on
	// screen before the module has arrived. Its figures are files beside
	// it (figure.<hash>.png). SnapshotOf is storedSum of the scenario the
	// page stores when it opens on the default scenario: web/boot.js drops
	// the snapshot on a page that opens another one.
	Snapshot, SnapshotAttrs, SnapshotOf string
}

func build(out string, wasmQuality int) error {
	if err := os.MkdirAll(out, 0o755); err != nil {
		return err
	}
	if err := clean(out); err != nil {
		return err
	}
	goroot, err := goEnv("GOROOT")
	if err != nil {
		return err
	}
	tmp, err := os.MkdirTemp("", "schedlab-site")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	// The module builds as build/wasmsize builds it, whose test holds its
	// size budget.
	root, err := os.Getwd()
	if err != nil {
		return err
	}
	m, _ := wasmsize.Lookup("browser")
	t0 := time.Now()
	if err := m.Build(context.Background(), root, filepath.Join(tmp, m.File)); err != nil {
		return err
	}
	fmt.Printf("site: built %s in %.0f s\n", m.Package, time.Since(t0).Seconds())
	// Vugu's renderer helper, which Vugu would otherwise eval (see
	// web/boot.js): the page's CSP allows scripts from files only.
	helper, err := vuguHelper()
	if err != nil {
		return err
	}
	vuguJS := filepath.Join(tmp, "vugu.js")
	if err := os.WriteFile(vuguJS, []byte(helper), 0o644); err != nil {
		return err
	}
	previewFile := filepath.Join(tmp, "default.bin")
	phoneFile := filepath.Join(tmp, "default-phone.bin")
	var a Assets
	figures := map[string][]byte{} // the snapshot's, by hashed name
	var pages [2]*app.App
	for i, p := range []struct {
		width int
		file  string
	}{{prebuild.DesktopWidth, previewFile}, {prebuild.PhoneWidth, phoneFile}} {
		preview, err := prebuild.At(p.width)
		if err != nil {
			return fmt.Errorf("computing the default scenario's results for a %d px screen: %w", p.width, err)
		}
		if err := os.WriteFile(p.file, preview, 0o644); err != nil {
			return err
		}
		page, stored, err := prebuild.Shown(preview, p.width, func(data []byte, mime string) string {
			name := hashedName("figure"+figureExt(mime), data)
			figures[name] = data
			return name
		})
		if err != nil {
			return fmt.Errorf("showing the default scenario's results on a %d px screen: %w", p.width, err)
		}
		pages[i] = page
		a.SnapshotOf = storedSum(stored[app.KeyScenario])
	}
	attrs, inner, err := snapshot.Draw(pages[0], pages[1])
	if err != nil {
		return fmt.Errorf("drawing the page's first screen: %w", err)
	}
	a.SnapshotAttrs, a.Snapshot = attrs, inner
	for name, data := range figures {
		if strings.Contains(inner, `"`+name+`"`) {
			if err := os.WriteFile(filepath.Join(out, name), data, 0o644); err != nil {
				return err
			}
		}
	}
	for _, f := range []struct {
		src, name string
		dst       *string
	}{
		{filepath.Join(tmp, m.File), m.File, &a.Module},
		{"web/worker.js", "worker.js", &a.Worker},
		{filepath.Join(goroot, "lib", "wasm", "wasm_exec.js"), "wasm_exec.js", &a.WasmExec},
		{"web/style.css", "style.css", &a.CSS},
		{"web/boot.js", "boot.js", &a.Boot},
		{"web/codeeditor.js", "codeeditor.js", &a.Code},
		{"web/codeeditor.css", "codeeditor.css", &a.CodeCSS},
		{vuguJS, "vugu.js", &a.Vugu},
		{previewFile, "default.bin", &a.Preview},
		{phoneFile, "default-phone.bin", &a.PhonePreview},
	} {
		if *f.dst, err = copyHashed(f.src, out, f.name); err != nil {
			return err
		}
	}
	var faces []string
	for _, f := range []struct {
		name string
		data []byte
	}{{"LiberationSans-Regular.ttf", sansregular.TTF}, {"LiberationSans-Bold.ttf", sansbold.TTF}} {
		name := hashedName(f.name, f.data)
		if err := os.WriteFile(filepath.Join(out, name), f.data, 0o644); err != nil {
			return err
		}
		faces = append(faces, name)
	}
	a.Faces = strings.Join(faces, " ")
	st, err := os.Stat(filepath.Join(out, a.Module))
	if err != nil {
		return err
	}
	a.ModuleSize = st.Size()
	if err := copyFile("web/favicon.svg", filepath.Join(out, "favicon.svg")); err != nil {
		return err
	}
	// The committed reproduction report gives the gallery its verdict
	// badges; without it an empty one makes them say "not yet run" (and
	// spares the page a failed request).
	report := []byte(`{"quick":false,"papers":[]}` + "\n")
	if data, err := os.ReadFile(reportJSON); err == nil {
		report = data
	}
	if err := os.WriteFile(filepath.Join(out, "report.json"), report, 0o644); err != nil {
		return err
	}
	page, err := os.ReadFile("index.html")
	if err != nil {
		return err
	}
	tmpl, err := template.New("index.html").Option("missingkey=error").Parse(string(page))
	if err != nil {
		return err
	}
	var buf bytes.Buffer
	if err := tmpl.Execute(&buf, a); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(out, "index.html"), buf.Bytes(), 0o644); err != nil {
		return err
	}
	// Branch-based GitHub Pages runs Jekyll, which drops some files; the
	// site needs none of it.
	if err := os.WriteFile(filepath.Join(out, ".nojekyll"), nil, 0o644); err != nil {
		return err
	}
	return compressAll(out, wasmQuality)
}

// reportJSON is the committed report of `schedlab reproduce`.
const reportJSON = "reproduction/report.json"

// clean removes the files of an earlier build, keeping anything else.
func clean(out string) error {
	entries, err := os.ReadDir(out)
	if err != nil {
		return err
	}
	for _, e := range entries {
		n := e.Name()
		base := strings.TrimSuffix(strings.TrimSuffix(n, ".gz"), ".br")
		ours := base == "index.html" || base == "favicon.svg" || base == "report.json" || n == ".nojekyll" || n == "engine.wasm" || n == "wasm_exec.js" || n == "worker.js"
		for _, p := range []string{"schedlab.", "ui.", "engine.", "worker.", "wasm_exec.", "style.", "boot.", "vugu.", "default.", "default-phone.", "codeeditor.", "figure.", "LiberationSans-"} {
			if strings.HasPrefix(n, p) {
				ours = true
			}
		}
		if ours && !e.IsDir() {
			if err := os.Remove(filepath.Join(out, n)); err != nil {
				return err
			}
		}
	}
	return nil
}

// copyHashed copies src to out as name with a content hash before the
// extension: schedlab.wasm -> schedlab.1a2b3c4d5e.wasm.
func copyHashed(src, out, name string) (string, error) {
	data, err := os.ReadFile(src)
	if err != nil {
		return "", err
	}
	hashed := hashedName(name, data)
	return hashed, os.WriteFile(filepath.Join(out, hashed), data, 0o644)
}

// hashedName is name with the content hash of data before the extension.
func hashedName(name string, data []byte) string {
	sum := sha256.Sum256(data)
	ext := filepath.Ext(name)
	return strings.TrimSuffix(name, ext) + "." + hex.EncodeToString(sum[:5]) + ext
}

// figureExt is the file extension of a figure the page would show from a
// blob: URL of type mime.
func figureExt(mime string) string {
	if strings.HasPrefix(mime, "image/svg") {
		return ".svg"
	}
	return ".png"
}

// storedSum is the sum web/boot.js computes of the scenario a browser has
// stored (see Assets.SnapshotOf): FNV-1a over its UTF-16 code units, as
// JavaScript sees a string, in hexadecimal.
func storedSum(s string) string {
	h := uint32(2166136261)
	for _, u := range utf16.Encode([]rune(s)) {
		h = (h ^ uint32(u)) * 16777619
	}
	return strconv.FormatUint(uint64(h), 16)
}

// vuguHelper returns the JavaScript that Vugu's DOM renderer evaluates
// when it starts: the constant jsHelperScript of its domrender package,
// read from the source of the Vugu version this module uses.
func vuguHelper() (string, error) {
	b, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", "github.com/vugu/vugu").Output()
	if err != nil {
		return "", fmt.Errorf("finding Vugu's source: %w", err)
	}
	file := filepath.Join(strings.TrimSpace(string(b)), "domrender", "renderer-js-script.go")
	f, err := parser.ParseFile(token.NewFileSet(), file, nil, 0)
	if err != nil {
		return "", err
	}
	for _, d := range f.Decls {
		g, ok := d.(*ast.GenDecl)
		if !ok || g.Tok != token.CONST {
			continue
		}
		for _, spec := range g.Specs {
			v := spec.(*ast.ValueSpec)
			if len(v.Names) == 1 && v.Names[0].Name == "jsHelperScript" && len(v.Values) == 1 {
				if lit, ok := v.Values[0].(*ast.BasicLit); ok && lit.Kind == token.STRING {
					return strconv.Unquote(lit.Value)
				}
			}
		}
	}
	return "", fmt.Errorf("%s: no constant jsHelperScript", file)
}

func goEnv(key string) (string, error) {
	b, err := exec.Command("go", "env", key).Output()
	if err != nil {
		return "", fmt.Errorf("go env %s: %w", key, err)
	}
	return strings.TrimSpace(string(b)), nil
}

func copyFile(src, dst string) error {
	data, err := os.ReadFile(src)
	if err != nil {
		return err
	}
	return os.WriteFile(dst, data, 0o644)
}
