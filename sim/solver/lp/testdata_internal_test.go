package lp

import (
	"bytes"
	"compress/gzip"
	"io"
	"os"
	"path/filepath"
	"testing"
)

// readDumped reads the dumped LP testdata/name.mps.gz.
func readDumped(tb testing.TB, name string) *Problem {
	tb.Helper()
	p, err := ReadMPS(bytes.NewReader(gunzipTestdata(tb, name+".mps.gz")))
	if err != nil {
		tb.Fatalf("%s: %v", name, err)
	}
	return p
}

// gunzipTestdata returns the contents of the gzipped file testdata/name.
func gunzipTestdata(tb testing.TB, name string) []byte {
	tb.Helper()
	f, err := os.Open(filepath.Join("testdata", name))
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		tb.Fatal(err)
	}
	data, err := io.ReadAll(zr)
	if err != nil {
		tb.Fatalf("%s: %v", name, err)
	}
	return data
}
