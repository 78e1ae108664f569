// Package gaveltable is schedlab's table of the throughputs Gavel measured
// (Narayanan et al., OSDI 2020): every job type of the 26-type zoo at every
// scale factor, on V100, P100 and K80 GPUs, consolidated and not, alone and
// co-located in pairs on one GPU (space sharing).
//
// The table is converted from the Gavel artifact's
// simulation_throughputs.json (MIT licence, © 2020 Stanford Future Data
// Systems) by Convert (run `go run ./sim/perf/gaveltable/convert`) into a
// compact text format of schedlab's own, throughputs.txt, which is
// embedded. The format, one record per line:
//
//	schedlab-gavel-throughputs 1
//	# comment lines
//	job <index> <scale factor> <job type key>
//	table <gpu type> <consolidated|unconsolidated>
//	solo <job index> <iterations/s>
//	pair <job index a> <job index b> <a's iterations/s> <b's iterations/s>
//
// solo and pair lines belong to the last table line. A pair is listed once,
// with a ≤ b; pairs that cannot share a GPU (throughput 0) are left out.
// Throughputs are of the whole job on its scale factor's GPUs.
package gaveltable

import (
	"bufio"
	"bytes"
	_ "embed"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"
)

// Placement says whether a multi-GPU job's workers share servers.
type Placement int

const (
	// Consolidated packs a job's workers on as few servers as possible.
	Consolidated Placement = iota
	// Unconsolidated puts each worker on a different server.
	Unconsolidated
)

var placementNames = [...]string{"consolidated", "unconsolidated"}

func (p Placement) String() string { return placementNames[p] }

// JobType is one row of the table: a job type key at a scale factor.
type JobType struct {
	Key string // e.g. "ResNet-50 (batch size 64)", "A3C"
	SF  int    // GPUs the job uses at once
}

// Table holds the throughputs.
type Table struct {
	jobs  []JobType
	index map[JobType]int
	gpus  []string // lower case, in file order
	solo  [][2][]float64
	// pairs collects the pair records while the table is parsed; dense
	// then holds them as a triangular array indexed by triangle(a, b) for
	// a ≤ b (zeros for pairs with no record): Pair is asked for every
	// pair candidate of every allocation with space sharing, where the
	// map made it 2% of a Figure 9 point (under 1% after).
	pairs [][2]map[[2]int32][2]float64
	dense [][2][][2]float64
}

// triangle is the index of the pair of job rows a ≤ b in dense.
func triangle(a, b int) int { return b*(b+1)/2 + a }

//go:embed throughputs.txt
var embedded []byte

var (
	defaultOnce  sync.Once
	defaultTable *Table
	defaultErr   error
)

// Default returns the embedded table.
func Default() (*Table, error) {
	defaultOnce.Do(func() { defaultTable, defaultErr = Parse(embedded) })
	return defaultTable, defaultErr
}

// Embedded returns the embedded file's bytes.
func Embedded() []byte { return embedded }

// Jobs lists the job types in table order.
func (t *Table) Jobs() []JobType { return t.jobs }

// GPUTypes lists the GPU types of the table in lower case.
func (t *Table) GPUTypes() []string { return t.gpus }

// Index returns the row of a job type, or -1.
func (t *Table) Index(key string, sf int) int {
	if i, ok := t.index[JobType{key, sf}]; ok {
		return i
	}
	return -1
}

// GPUIndex returns the column of a GPU type (any case), or -1.
func (t *Table) GPUIndex(gpu string) int {
	// A rate query per running job per event asks this, with the
	// cluster's upper-case names: lowering an ASCII name as it is compared
	// spares strings.ToLower's copy each time, with the same result.
	if isASCII(gpu) {
		for i, x := range t.gpus {
			if equalLowered(x, gpu) {
				return i
			}
		}
		return -1
	}
	g := strings.ToLower(gpu)
	for i, x := range t.gpus {
		if x == g {
			return i
		}
	}
	return -1
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// equalLowered reports whether x == strings.ToLower(s) for an ASCII s.
func equalLowered(x, s string) bool {
	if len(x) != len(s) {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if x[i] != c {
			return false
		}
	}
	return true
}

// Solo is the throughput of job row i alone on GPU column g, 0 when it
// cannot run there (or i or g is -1).
func (t *Table) Solo(i, g int, p Placement) float64 {
	if i < 0 || g < 0 {
		return 0
	}
	s := t.solo[g][p]
	if s == nil {
		return 0
	}
	return s[i]
}

// Pair is the throughputs of job rows a and b sharing GPUs of column g
// (a's first), or zeros when they cannot share.
func (t *Table) Pair(a, b, g int, p Placement) (float64, float64) {
	if a < 0 || b < 0 || g < 0 || t.dense[g][p] == nil || a >= len(t.jobs) || b >= len(t.jobs) {
		return 0, 0
	}
	if a <= b {
		v := t.dense[g][p][triangle(a, b)]
		return v[0], v[1]
	}
	v := t.dense[g][p][triangle(b, a)]
	return v[1], v[0]
}

// Parse reads a table in schedlab's format.
func Parse(data []byte) (*Table, error) {
	t := &Table{index: map[JobType]int{}}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 1<<16), 1<<20)
	line := 0
	g, p := -1, Consolidated
	fail := func(format string, args ...any) (*Table, error) {
		return nil, fmt.Errorf("gaveltable: line %d: %s", line, fmt.Sprintf(format, args...))
	}
	for sc.Scan() {
		line++
		text := sc.Text()
		if line == 1 {
			if text != "schedlab-gavel-throughputs 1" {
				return fail("not a schedlab Gavel throughput table (version 1)")
			}
			continue
		}
		if text == "" || text[0] == '#' {
			continue
		}
		f := strings.Fields(text)
		switch f[0] {
		case "job":
			parts := strings.SplitN(text, " ", 4)
			if len(parts) != 4 {
				return fail("job needs an index, a scale factor and a key")
			}
			idx, err1 := strconv.Atoi(parts[1])
			sf, err2 := strconv.Atoi(parts[2])
			if err1 != nil || err2 != nil || idx != len(t.jobs) || sf < 1 {
				return fail("bad job line %q", text)
			}
			jt := JobType{Key: parts[3], SF: sf}
			t.index[jt] = idx
			t.jobs = append(t.jobs, jt)
		case "table":
			if len(f) != 3 || (f[2] != "consolidated" && f[2] != "unconsolidated") {
				return fail("table needs a GPU type and consolidated|unconsolidated")
			}
			g = indexOf(t.gpus, f[1])
			if g < 0 {
				g = len(t.gpus)
				t.gpus = append(t.gpus, f[1])
				t.solo = append(t.solo, [2][]float64{})
				t.pairs = append(t.pairs, [2]map[[2]int32][2]float64{})
			}
			p = Consolidated
			if f[2] == "unconsolidated" {
				p = Unconsolidated
			}
			t.solo[g][p] = make([]float64, len(t.jobs))
			t.pairs[g][p] = map[[2]int32][2]float64{}
		case "solo":
			if g < 0 || len(f) != 3 {
				return fail("solo needs a table and 2 fields")
			}
			i, err1 := strconv.Atoi(f[1])
			v, err2 := strconv.ParseFloat(f[2], 64)
			if err1 != nil || err2 != nil || i < 0 || i >= len(t.jobs) || v < 0 {
				return fail("bad solo line %q", text)
			}
			t.solo[g][p][i] = v
		case "pair":
			if g < 0 || len(f) != 5 {
				return fail("pair needs a table and 4 fields")
			}
			a, err1 := strconv.Atoi(f[1])
			b, err2 := strconv.Atoi(f[2])
			va, err3 := strconv.ParseFloat(f[3], 64)
			vb, err4 := strconv.ParseFloat(f[4], 64)
			if err1 != nil || err2 != nil || err3 != nil || err4 != nil || a < 0 || b < a || b >= len(t.jobs) {
				return fail("bad pair line %q", text)
			}
			t.pairs[g][p][[2]int32{int32(a), int32(b)}] = [2]float64{va, vb}
		default:
			return fail("unknown record %q", f[0])
		}
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if len(t.jobs) == 0 || len(t.gpus) == 0 {
		return nil, fmt.Errorf("gaveltable: empty table")
	}
	t.densePairs()
	return t, nil
}

// densePairs fills dense from pairs.
func (t *Table) densePairs() {
	n := len(t.jobs)
	t.dense = make([][2][][2]float64, len(t.pairs))
	for g := range t.pairs {
		for p, m := range t.pairs[g] {
			if m == nil {
				continue
			}
			d := make([][2]float64, n*(n+1)/2)
			for k, v := range m {
				if a, b := int(k[0]), int(k[1]); b < n {
					d[triangle(a, b)] = v
				}
			}
			t.dense[g][p] = d
		}
	}
	t.pairs = nil
}

func indexOf(list []string, s string) int {
	for i, x := range list {
		if x == s {
			return i
		}
	}
	return -1
}
