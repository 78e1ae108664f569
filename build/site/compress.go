package main

import (
	"os"
	"path/filepath"
	"slices"
	"sync"

	"github.com/schedlab/schedlab/build/wasmsize"
)

// compressible are the extensions whose files get precompressed copies.
var compressible = []string{".wasm", ".js", ".css", ".html", ".svg", ".bin", ".json"}

// compressAll writes a gzip (.gz) and a brotli (.br) copy beside every
// compressible file of out (compressed as build/wasmsize measures the
// modules' budgets), for servers that send a precompressed copy to
// a browser that accepts it (build/static). A static host that compresses
// by itself (GitHub Pages gzips) ignores them. The two engine files take
// most of the time, so the files compress in parallel.
func compressAll(out string) error {
	entries, err := os.ReadDir(out)
	if err != nil {
		return err
	}
	var wg sync.WaitGroup
	errs := make(chan error, 2*len(entries))
	for _, e := range entries {
		name := filepath.Join(out, e.Name())
		if e.IsDir() || !slices.Contains(compressible, filepath.Ext(name)) {
			continue
		}
		data, err := os.ReadFile(name)
		if err != nil {
			return err
		}
		for _, enc := range []struct {
			ext string
			fn  func([]byte) ([]byte, error)
		}{{".gz", wasmsize.GzipBest}, {".br", wasmsize.BrotliSite}} {
			wg.Add(1)
			go func() {
				defer wg.Done()
				b, err := enc.fn(data)
				if err == nil {
					err = os.WriteFile(name+enc.ext, b, 0o644)
				}
				errs <- err
			}()
		}
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}
