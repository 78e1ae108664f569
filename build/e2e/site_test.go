//go:build !js

package e2e

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
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
	hashed := regexp.MustCompile(`"((ui|engine|worker|wasm_exec|style|boot|vugu)\.[0-9a-f]{10}\.(wasm|js|css))"`)
	found := map[string]bool{}
	for _, m := range hashed.FindAllStringSubmatch(string(page), -1) {
		found[m[2]] = true
		if _, err := os.Stat(filepath.Join(dir, m[1])); err != nil {
			t.Errorf("index.html names %s, which is not in the site", m[1])
		}
	}
	for _, k := range []string{"ui", "engine", "worker", "wasm_exec", "style", "boot", "vugu"} {
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
