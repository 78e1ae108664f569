package main

import (
	"fmt"
	"os"
	"path/filepath"
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
	name := experiment.Slug(r.Policy)
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
