package main

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sync"

	"github.com/schedlab/schedlab/build/wasmsize"
)

// compressible are the extensions whose files get precompressed copies.
var compressible = []string{".wasm", ".js", ".css", ".html", ".svg", ".bin", ".json", ".ttf"}

// compressAll writes a gzip (.gz) and a brotli (.br) copy beside every
// compressible file of out (compressed as build/wasmsize measures the
// modules' budgets), for servers that send a precompressed copy to
// a browser that accepts it (build/static). A static host that compresses
// by itself (GitHub Pages gzips) ignores them. The module's brotli copy is
// compressed at wasmQuality (see wasmBrotli). The module takes most of
// the time, so the files compress in parallel.
func compressAll(out string, wasmQuality int) error {
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
		br := wasmsize.BrotliSite
		if filepath.Ext(name) == ".wasm" {
			br = func(data []byte) ([]byte, error) { return wasmBrotli(data, wasmQuality) }
		}
		for _, enc := range []struct {
			ext string
			fn  func([]byte) ([]byte, error)
		}{{".gz", wasmsize.GzipBest}, {".br", br}} {
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

// wasmBrotli is the module's brotli copy at that quality. Quality 11 makes
// it about 15% smaller than the other files' 6 (3.78 MB against 4.46 MB)
// and takes a minute or two on a 22 MB module, so the result is kept in
// the user's cache under the module's SHA-256 and used again while the
// module is unchanged; browsers decompress either as fast.
func wasmBrotli(data []byte, quality int) ([]byte, error) {
	if quality <= 6 {
		return wasmsize.BrotliQuality(data, quality)
	}
	sum := sha256.Sum256(data)
	cached := ""
	if dir, err := os.UserCacheDir(); err == nil {
		cached = filepath.Join(dir, "schedlab", "brotli", fmt.Sprintf("%s-q%d.br", hex.EncodeToString(sum[:]), quality))
		if b, err := os.ReadFile(cached); err == nil {
			return b, nil
		}
	}
	fmt.Printf("site: brotli %d of the %.1f MB module (a minute or two; kept in %s for the next build)\n", quality, float64(len(data))/1e6, filepath.Dir(cached))
	b, err := wasmsize.BrotliQuality(data, quality)
	if err != nil || cached == "" {
		return b, err
	}
	// A cache that cannot be written costs only the next build's time.
	if os.MkdirAll(filepath.Dir(cached), 0o755) == nil {
		tmp := cached + ".tmp"
		if os.WriteFile(tmp, b, 0o644) == nil {
			_ = os.Rename(tmp, cached)
		}
	}
	return b, nil
}
