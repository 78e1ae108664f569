package static

import (
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestAccepts(t *testing.T) {
	for _, c := range []struct {
		header, name string
		want         bool
	}{
		{"gzip, deflate, br, zstd", "br", true},
		{"gzip, deflate", "br", false},
		{"gzip;q=0.5, br;q=0", "br", false},
		{"gzip;q=0.5, br;q=0", "gzip", true},
		{"*", "br", true},
		{"*;q=0", "gzip", false},
		{"br;q=0, *", "br", false},
		{"", "gzip", false},
		{" GZIP ; q=1.0", "gzip", true},
	} {
		if got := Accepts(c.header, c.name); got != c.want {
			t.Errorf("Accepts(%q, %q) = %v, want %v", c.header, c.name, got, c.want)
		}
	}
}

// The handler sends the best copy the browser accepts, with the original
// file's type, and the file itself otherwise.
func TestHandler(t *testing.T) {
	dir := t.TempDir()
	for name, body := range map[string]string{
		"ui.wasm": "raw", "ui.wasm.gz": "gz", "ui.wasm.br": "br",
		"index.html": "<p>page", "index.html.gz": "gz page",
		"style.css": "css",
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	srv := httptest.NewServer(Handler(dir))
	defer srv.Close()
	for _, c := range []struct {
		path, accept, body, encoding, ctype string
	}{
		{"/ui.wasm", "gzip, deflate, br", "br", "br", "application/wasm"},
		{"/ui.wasm", "gzip, deflate", "gz", "gzip", "application/wasm"},
		{"/ui.wasm", "identity", "raw", "", "application/wasm"},
		{"/", "gzip", "gz page", "gzip", "text/html; charset=utf-8"},
		{"/index.html", "br", "", "", "text/html; charset=utf-8"}, // FileServer redirects index.html to ./
		{"/style.css", "gzip, br", "css", "", "text/css; charset=utf-8"},
		{"/../ui.wasm", "br", "br", "br", "application/wasm"}, // cleaned, never outside dir
	} {
		req, _ := http.NewRequest("GET", srv.URL+c.path, nil)
		req.Header.Set("Accept-Encoding", c.accept)
		// A transport that leaves the body encoded, as a test must see it.
		res, err := (&http.Transport{DisableCompression: true}).RoundTrip(req)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if c.path == "/index.html" {
			if res.StatusCode != http.StatusMovedPermanently {
				t.Errorf("%s: status %d", c.path, res.StatusCode)
			}
			continue
		}
		if string(b) != c.body || res.Header.Get("Content-Encoding") != c.encoding || res.Header.Get("Content-Type") != c.ctype {
			t.Errorf("%s with %q: body %q, encoding %q, type %q; want %q, %q, %q", c.path, c.accept,
				b, res.Header.Get("Content-Encoding"), res.Header.Get("Content-Type"), c.body, c.encoding, c.ctype)
		}
		if res.Header.Get("Vary") != "Accept-Encoding" {
			t.Errorf("%s: Vary %q", c.path, res.Header.Get("Vary"))
		}
	}
}

// TestOnlyInsideTheFolder: symbolic links out of the folder are not
// followed (a file, a folder, a compressed copy), links inside are, and no
// folder is listed.
func TestOnlyInsideTheFolder(t *testing.T) {
	outside := t.TempDir()
	secret := filepath.Join(outside, "secret.txt")
	if err := os.WriteFile(secret, []byte("secret"), 0o644); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	write := func(name, body string) {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("index.html", "<p>page")
	write("app.js", "js")
	write("docs/index.html", "<p>docs")
	write("assets/a.css", "css")
	link := func(target, name string) {
		if err := os.Symlink(target, filepath.Join(dir, name)); err != nil {
			t.Skipf("no symbolic links here: %v", err)
		}
	}
	link(secret, "leak.txt") // absolute links lead out
	link(outside, "out")
	link(secret, "app.js.br") // a compressed copy that leads out
	link("app.js", "same.js") // a relative link inside: fine
	srv := httptest.NewServer(Handler(dir))
	defer srv.Close()
	for _, c := range []struct {
		path, accept string
		status       int
		body         string
	}{
		{"/leak.txt", "", 404, ""},
		{"/out/secret.txt", "", 404, ""},
		{"/out/", "", 404, ""},
		{"/app.js", "br", 200, "js"},
		{"/same.js", "", 200, "js"},
		{"/assets/", "", 404, ""},
		{"/assets/a.css", "", 200, "css"},
		{"/docs/", "", 200, "<p>docs"},
		{"/", "", 200, "<p>page"},
	} {
		req, _ := http.NewRequest("GET", srv.URL+c.path, nil)
		if c.accept != "" {
			req.Header.Set("Accept-Encoding", c.accept)
		}
		res, err := (&http.Transport{DisableCompression: true}).RoundTrip(req)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if res.StatusCode != c.status || (c.body != "" && string(b) != c.body) || strings.Contains(string(b), "secret") {
			t.Errorf("GET %s (Accept-Encoding %q): %d %q, want %d %q", c.path, c.accept, res.StatusCode, b, c.status, c.body)
		}
	}
}
