package main

import (
	"bytes"
	"compress/gzip"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/andybalholm/brotli"
)

// TestReportIsPrecompressed: the reproduction report the gallery and the
// figure view read gets its gzip and brotli copies like the other assets,
// and both decompress to the report itself.
func TestReportIsPrecompressed(t *testing.T) {
	dir := t.TempDir()
	report := bytes.Repeat([]byte(`{"figure":"Fig. 8","verdict":"pass"},`), 200)
	if err := os.WriteFile(filepath.Join(dir, "report.json"), report, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := compressAll(dir, 11); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		ext    string
		reader func(io.Reader) (io.Reader, error)
	}{
		{".gz", func(r io.Reader) (io.Reader, error) { return gzip.NewReader(r) }},
		{".br", func(r io.Reader) (io.Reader, error) { return brotli.NewReader(r), nil }},
	} {
		f, err := os.Open(filepath.Join(dir, "report.json"+c.ext))
		if err != nil {
			t.Fatalf("no %s copy of report.json: %v", c.ext, err)
		}
		r, err := c.reader(f)
		if err != nil {
			t.Fatal(err)
		}
		got, err := io.ReadAll(r)
		f.Close()
		if err != nil || !bytes.Equal(got, report) {
			t.Errorf("report.json%s does not decompress to the report (%d bytes, %v)", c.ext, len(got), err)
		}
	}
}

// TestModuleBrotliCached: the module's brotli copy is made at the quality
// asked for, decompresses to the module, and is taken from the user's
// cache while the module is unchanged (a planted cache entry is what the
// next build writes), but not for another module or quality.
func TestModuleBrotliCached(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	module := bytes.Repeat([]byte("\x00asm schedlab module "), 5000)
	first, err := wasmBrotli(module, 11)
	if err != nil {
		t.Fatal(err)
	}
	if got, err := io.ReadAll(brotli.NewReader(bytes.NewReader(first))); err != nil || !bytes.Equal(got, module) {
		t.Fatalf("the brotli copy does not decompress to the module (%d bytes, %v)", len(got), err)
	}
	dir, err := os.UserCacheDir()
	if err != nil {
		t.Fatal(err)
	}
	entries, err := filepath.Glob(filepath.Join(dir, "schedlab", "brotli", "*-q11.br"))
	if err != nil || len(entries) != 1 {
		t.Fatalf("cache entries %v (%v), want one", entries, err)
	}
	planted := []byte("planted")
	if err := os.WriteFile(entries[0], planted, 0o644); err != nil {
		t.Fatal(err)
	}
	if again, _ := wasmBrotli(module, 11); !bytes.Equal(again, planted) {
		t.Error("an unchanged module was compressed again instead of taken from the cache")
	}
	if other, _ := wasmBrotli(append([]byte("changed"), module...), 11); bytes.Equal(other, planted) {
		t.Error("a changed module got the cached copy of another")
	}
	if q6, _ := wasmBrotli(module, 6); bytes.Equal(q6, planted) {
		t.Error("quality 6 got the cached copy of quality 11")
	}
}
