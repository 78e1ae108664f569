// Package static serves the built site: the files as they are, or, where
// the browser accepts it, the brotli (.br) or gzip (.gz) copy of a file
// that build/site wrote beside it, with the Content-Encoding that says so.
// build/serve, schedlab serve and the browser tests use it.
//
// Only what is inside the folder is served: files are opened through an
// os.Root, so a symbolic link that leads out of the folder (to /etc, to a
// home directory) is not followed, for a file or for its compressed
// copy; and a folder without an index.html is not listed (404).
package static

import (
	"errors"
	"io/fs"
	"net/http"
	"os"
	"path"
	"strconv"
	"strings"
)

// siteFS opens the folder dir through an os.Root; every folder it opens
// must hold an index.html, so that no folder is ever listed.
func siteFS(dir string) http.FileSystem {
	root, err := os.OpenRoot(dir)
	if err != nil {
		return missing{err}
	}
	return noListing{http.FS(root.FS())}
}

// missing is a folder that could not be opened: every file is missing.
type missing struct{ err error }

func (m missing) Open(string) (http.File, error) { return nil, fs.ErrNotExist }

// noListing refuses to open a folder without an index.html.
type noListing struct{ fs http.FileSystem }

func (n noListing) Open(name string) (http.File, error) {
	f, err := n.fs.Open(name)
	if err != nil {
		return nil, notFound(err)
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, fs.ErrNotExist
	}
	if st.IsDir() {
		index, err := n.fs.Open(path.Join(name, "index.html"))
		if err != nil {
			f.Close()
			return nil, fs.ErrNotExist
		}
		index.Close()
	}
	return f, nil
}

// notFound turns a refusal to leave the folder into "not found": the
// file server answers 404, and says nothing of what lies outside.
func notFound(err error) error {
	if errors.Is(err, fs.ErrNotExist) || errors.Is(err, fs.ErrPermission) {
		return err
	}
	return fs.ErrNotExist
}

// encodings are the precompressed copies looked for, best first.
var encodings = []struct{ name, ext string }{{"br", ".br"}, {"gzip", ".gz"}}

// Handler serves the folder dir, preferring a precompressed copy of a
// file when the request's Accept-Encoding allows it. Every answer says
// no-cache, so a developer's browser never runs a stale engine (the
// hashed names make revalidation cheap).
func Handler(dir string) http.Handler {
	root := siteFS(dir)
	files := http.FileServer(root)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", "no-cache")
		w.Header().Add("Vary", "Accept-Encoding")
		name := path.Clean("/" + r.URL.Path)
		if strings.HasSuffix(r.URL.Path, "/") {
			name = path.Join(name, "index.html")
		}
		if r.Method == http.MethodGet || r.Method == http.MethodHead {
			for _, e := range encodings {
				if !Accepts(r.Header.Get("Accept-Encoding"), e.name) {
					continue
				}
				f, err := root.Open(name + e.ext)
				if err != nil {
					continue
				}
				st, err := f.Stat()
				if err != nil || st.IsDir() {
					f.Close()
					continue
				}
				// ServeContent takes the type from the original name.
				w.Header().Set("Content-Encoding", e.name)
				http.ServeContent(w, r, name, st.ModTime(), f)
				f.Close()
				return
			}
		}
		files.ServeHTTP(w, r)
	})
}

// Plain serves the folder dir as it is, never a compressed copy, as a
// static server without compression would.
func Plain(dir string) http.Handler {
	files := http.FileServer(siteFS(dir))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", "no-cache")
		files.ServeHTTP(w, r)
	})
}

// Accepts reports whether an Accept-Encoding header value allows the
// coding name: listed (or "*") with a quality above zero.
func Accepts(header, name string) bool {
	star := false
	for _, part := range strings.Split(header, ",") {
		coding, params, _ := strings.Cut(strings.TrimSpace(part), ";")
		coding = strings.ToLower(strings.TrimSpace(coding))
		if coding != name && coding != "*" {
			continue
		}
		q := 1.0
		for _, p := range strings.Split(params, ";") {
			k, v, ok := strings.Cut(strings.TrimSpace(p), "=")
			if ok && strings.TrimSpace(k) == "q" {
				if f, err := strconv.ParseFloat(strings.TrimSpace(v), 64); err == nil {
					q = f
				}
			}
		}
		if coding == name {
			return q > 0
		}
		star = q > 0
	}
	return star
}
