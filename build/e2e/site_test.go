//go:build !js

package e2e

import (
	"bytes"
	"compress/gzip"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/andybalholm/brotli"
)

// The site is complete and relocatable: index.html names content-hashed
// assets that exist, every URL is relative, and .nojekyll is there.
func TestSiteIsStatic(t *testing.T) {
	dir := site(t)
	page, err := os.ReadFile(filepath.Join(dir, "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, ".nojekyll")); err != nil {
		t.Error(".nojekyll is missing")
	}
	hashed := regexp.MustCompile(`"((schedlab|worker|wasm_exec|style|boot|vugu|figure)\.[0-9a-f]{10}\.(wasm|js|css|png))"`)
	found := map[string]bool{}
	for _, m := range hashed.FindAllStringSubmatch(string(page), -1) {
		found[m[2]] = true
		if _, err := os.Stat(filepath.Join(dir, m[1])); err != nil {
			t.Errorf("index.html names %s, which is not in the site", m[1])
		}
		if m[3] != "png" { // compressed already
			precompressed(t, filepath.Join(dir, m[1]))
		}
	}
	precompressed(t, filepath.Join(dir, "index.html"))
	for _, k := range []string{"schedlab", "worker", "wasm_exec", "style", "boot", "vugu", "figure"} {
		if !found[k] {
			t.Errorf("index.html does not name a hashed %s asset", k)
		}
	}
	for _, m := range regexp.MustCompile(`(?:src|href)="([^"]*)"`).FindAllStringSubmatch(string(page), -1) {
		if strings.HasPrefix(m[1], "/") || strings.Contains(m[1], "://") {
			t.Errorf("absolute URL %q breaks the site under a sub-path", m[1])
		}
	}
	// Every script is a file: the CSP allows no inline script.
	for _, m := range regexp.MustCompile(`<script[^>]*>`).FindAllString(string(page), -1) {
		if !strings.Contains(m, " src=") {
			t.Errorf("inline script %s", m)
		}
	}
	if strings.Count(string(page), "</script>") != strings.Count(string(page), "<script ") {
		t.Error("a script element has content")
	}
	if !strings.Contains(string(page), `http-equiv="Content-Security-Policy"`) {
		t.Error("index.html has no Content-Security-Policy")
	}
	if strings.Contains(string(page), "{{") {
		t.Error("index.html still holds template actions")
	}
}

// precompressed checks that file has gzip and brotli copies that
// decompress to it (build/static serves them).
func precompressed(t *testing.T, file string) {
	t.Helper()
	want, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	for ext, open := range map[string]func(io.Reader) (io.Reader, error){
		".gz": func(r io.Reader) (io.Reader, error) { return gzip.NewReader(r) },
		".br": func(r io.Reader) (io.Reader, error) { return brotli.NewReader(r), nil },
	} {
		f, err := os.Open(file + ext)
		if err != nil {
			t.Errorf("no precompressed copy: %v", err)
			continue
		}
		r, err := open(f)
		var got []byte
		if err == nil {
			got, err = io.ReadAll(r)
		}
		f.Close()
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("%s%s does not decompress to %s (%v)", filepath.Base(file), ext, filepath.Base(file), err)
		}
	}
}
