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
	if err := compressAll(dir); err != nil {
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
