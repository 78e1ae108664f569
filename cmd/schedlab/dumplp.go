package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/schedlab/schedlab/sim/experiment"
	"github.com/schedlab/schedlab/sim/solver/lp"
)

// lpDumper writes every LP a policy solves as DIR/<policy>-<n>.mps, n
// counting from 1 per policy label, so any allocation can be checked with
// another solver.
type lpDumper struct {
	dir   string
	mu    sync.Mutex
	count map[string]int
	err   error
	files int
}

func newLPDumper(dir string) (*lpDumper, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	return &lpDumper{dir: dir, count: map[string]int{}}, nil
}

func (d *lpDumper) sink(r *experiment.Run, p *lp.Problem) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.err != nil {
		return
	}
	name := fileSlug(r.Policy)
	d.count[name]++
	path := filepath.Join(d.dir, fmt.Sprintf("%s-%d.mps", name, d.count[name]))
	f, err := os.Create(path)
	if err == nil {
		err = lp.WriteMPS(f, p)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
	}
	if err != nil {
		d.err = err
		return
	}
	d.files++
}

// fileSlug turns a policy label into a file-name part: "Gavel w/ SS" ->
// "gavel-w-ss".
func fileSlug(s string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(s) {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' {
			b.WriteRune(r)
			dash = false
		} else if !dash && b.Len() > 0 {
			b.WriteByte('-')
			dash = true
		}
	}
	return strings.TrimSuffix(b.String(), "-")
}
