package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"sync"

	"github.com/schedlab/schedlab/sim/experiment"
	"github.com/schedlab/schedlab/sim/solver/lp"
)

// lpDumper writes every LP a policy solves as
// DIR/<policy>-s<seed>[-x<sweep value>]-<n>.mps, n counting from 1 within
// one run, so any allocation can be checked with another solver. Runs go
// in parallel, but each run solves its LPs in order, so a file's name
// names the same LP however the runs interleave.
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
	name := fmt.Sprintf("%s-s%d", experiment.Slug(r.Policy), r.Seed)
	if r.Swept {
		name += "-x" + strconv.FormatFloat(r.X, 'g', -1, 64)
	}
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
