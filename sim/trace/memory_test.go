package trace

import (
	"fmt"
	"io"
	"runtime"
	"strings"
	"testing"
	"time"
)

// phillyStream is a Philly log of n rows a minute apart, made as it is
// read.
type phillyStream struct {
	n, i int
	buf  []byte
}

func (p *phillyStream) Read(b []byte) (int, error) {
	for len(p.buf) < len(b) && p.i <= p.n {
		if p.i == 0 {
			p.buf = append(p.buf, "timestamp,duration,num_gpus,gpu_time,cluster\n"...)
		} else {
			t := time.Date(2017, 10, 9, 0, 0, 0, 0, time.UTC).Add(time.Duration(p.i) * time.Minute)
			p.buf = fmt.Appendf(p.buf, "%s,%d.0,%d,600.0,c%d\n", t.Format("2006-01-02 15:04:05"), 600+p.i%5000, 1+p.i%4, p.i%50)
		}
		p.i++
	}
	if len(p.buf) == 0 {
		return 0, io.EOF
	}
	n := copy(b, p.buf)
	p.buf = p.buf[n:]
	return n, nil
}

// peakHeap runs f and returns how far the heap grew above where it was.
func peakHeap(f func()) uint64 {
	runtime.GC()
	var base runtime.MemStats
	runtime.ReadMemStats(&base)
	stop := make(chan struct{})
	peak := make(chan uint64)
	go func() {
		var top uint64
		tick := time.NewTicker(2 * time.Millisecond)
		defer tick.Stop()
		for {
			var ms runtime.MemStats
			runtime.ReadMemStats(&ms)
			top = max(top, ms.HeapAlloc)
			select {
			case <-stop:
				peak <- top
				return
			case <-tick.C:
			}
		}
	}()
	f()
	close(stop)
	top := <-peak
	if top < base.HeapAlloc {
		return 0
	}
	return top - base.HeapAlloc
}

// A window and a sample choose from every row, so every row is kept
// until they have chosen: kept small (about 80 bytes), in chunks, and
// sorted by small keys. 1,000,000 rows for a sample of 240 stay within
// 250 MB of heap (172 MB measured), where rows of whole jobs in a growing
// slice, sorted into a copy, took 479 MB.
func TestRowsForASampleStaySmall(t *testing.T) {
	if testing.Short() {
		t.Skip("reads 1,000,000 rows")
	}
	var res *Result
	var err error
	grew := peakHeap(func() {
		res, err = Import("philly", &phillyStream{n: 1_000_000}, Options{BusiestH: 2000, Sample: 240, Seed: 1})
	})
	if err != nil {
		t.Fatal(err)
	}
	if res.Rows != 1_000_000 || len(res.Jobs) != 240 {
		t.Fatalf("%s", res.Summary())
	}
	t.Logf("%s; the heap grew by %d MB", res.Summary(), grew>>20)
	if grew > 250<<20 {
		t.Errorf("the heap grew by %d MB for 1,000,000 rows, more than 250 MB", grew>>20)
	}
	if !strings.Contains(res.Summary(), "not in the sample of 240") {
		t.Errorf("summary %q", res.Summary())
	}
}
