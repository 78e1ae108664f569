//go:build !js

package wasmsize

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestBudgets builds the two modules as they ship, checks each against
// its budget as it travels (TestBudgets/browser and /edge) and the
// table of docs/development.md against the builds.
func TestBudgets(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the two WebAssembly modules (minutes)")
	}
	root := filepath.Join("..", "..")
	tmp := t.TempDir()
	var ms []Measured
	for _, m := range Modules {
		t.Run(m.Name, func(t *testing.T) {
			out := filepath.Join(tmp, m.File)
			if err := m.Build(context.Background(), root, out); err != nil {
				t.Fatal(err)
			}
			data, err := os.ReadFile(out)
			if err != nil {
				t.Fatal(err)
			}
			s, err := Measure(data)
			if err != nil {
				t.Fatal(err)
			}
			ms = append(ms, Measured{m, s})
			served := m.ServedSize(s)
			t.Logf("%s: %d bytes, gzip -9 %d, brotli 6 %d, gzip -6 %d; %d of its %d-byte budget (%s), %d to spare",
				m.File, s.Raw, s.Gzip, s.Brotli, s.Gzip6, served, m.Budget, m.Served, m.Budget-served)
			if served > m.Budget {
				t.Errorf("%s is %d bytes with %s, over its budget of %d: leave out what it does not use (docs/development.md#sizes), or raise the budget in build/wasmsize",
					m.File, served, m.Served, m.Budget)
			}
		})
	}
	if len(ms) != len(Modules) {
		return
	}
	doc, err := os.ReadFile(filepath.Join(root, DocFile))
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range Check(string(doc), ms) {
		t.Errorf("%s: %s\n(make sizes writes the builds' figures into it)", DocFile, p)
	}
}

// sample is a table's worth of made-up sizes.
var sample = []Measured{
	{Modules[0], Sizes{Raw: 13_000_000, Gzip: 3_800_000, Brotli: 3_000_000, Gzip6: 3_830_000}},
	{Modules[1], Sizes{Raw: 8_800_000, Gzip: 2_330_000, Brotli: 1_900_000, Gzip6: 2_370_000}},
}

func TestTable(t *testing.T) {
	table := Table(sample)
	for _, want := range []string{
		"| `schedlab.wasm` | the page and its simulator in Web Workers (wasm/browser) | 13.00 MB | 3.80 MB | 3.00 MB | 3.00 MB brotli | 4.60 MB |",
		"| `app.wasm` | the JSON API on Cloudflare Workers (wasm/edge) | 8.80 MB | 2.33 MB | 1.90 MB | 2.37 MB gzip -6 | 2.70 MB |",
	} {
		if !strings.Contains(table, want+"\n") {
			t.Errorf("the table has no line\n\t%s\nit is\n%s", want, table)
		}
	}
}

// TestCheck: a table within Tolerance of the builds passes; a figure
// further off, another budget, a changed word or a missing table do not.
func TestCheck(t *testing.T) {
	doc := func(table string) string {
		return "# Development\n\n" + BeginTable + "\n" + table + EndTable + "\n\nmore text\n"
	}
	table := Table(sample)
	if p := Check(doc(table), sample); len(p) > 0 {
		t.Errorf("the builds' own table: %v", p)
	}
	spliced, err := Splice(doc("| old |\n"), table)
	if err != nil || spliced != doc(table) {
		t.Errorf("Splice gave %q, %v", spliced, err)
	}
	for _, c := range []struct {
		name, from, to string
		ok             bool
	}{
		{"the browser's raw size 1.5% off", "13.00 MB", "13.19 MB", true},
		{"the browser's raw size 2.5% off", "13.00 MB", "13.33 MB", false},
		{"the API as it travels 3% off", "2.37 MB gzip", "2.30 MB gzip", false},
		{"another budget", "gzip -6 | 2.70 MB |", "gzip -6 | 2.71 MB |", false},
		{"another word", "the page and its", "the pages and its", false},
		{"brotli for gzip", "2.37 MB gzip -6", "2.37 MB brotli", false},
	} {
		changed := strings.Replace(table, c.from, c.to, 1)
		if changed == table {
			t.Fatalf("%s: %q is not in the table", c.name, c.from)
		}
		p := Check(doc(changed), sample)
		if c.ok != (len(p) == 0) {
			t.Errorf("%s: Check says %v", c.name, p)
		}
	}
	if p := Check("# Development\n", sample); len(p) != 1 {
		t.Errorf("a document without the table: %v", p)
	}
}

// TestMeasure: the figures are those of the compressed data.
func TestMeasure(t *testing.T) {
	data := []byte(strings.Repeat("schedlab ", 10_000))
	s, err := Measure(data)
	if err != nil {
		t.Fatal(err)
	}
	gz, _ := GzipBest(data)
	br, _ := BrotliSite(data)
	gz6, _ := Gzip6(data)
	if s.Raw != int64(len(data)) || s.Gzip != int64(len(gz)) || s.Brotli != int64(len(br)) || s.Gzip6 != int64(len(gz6)) {
		t.Errorf("Measure %+v; raw %d, gzip %d, brotli %d, gzip -6 %d", s, len(data), len(gz), len(br), len(gz6))
	}
	if s.Gzip >= s.Raw/10 || s.Brotli >= s.Raw/10 {
		t.Errorf("repetitive data hardly compressed: %+v", s)
	}
	edge, _ := Lookup("edge")
	browser, _ := Lookup("browser")
	if edge.ServedSize(s) != s.Gzip6 || browser.ServedSize(s) != s.Brotli {
		t.Errorf("served sizes: edge %d, browser %d", edge.ServedSize(s), browser.ServedSize(s))
	}
}
