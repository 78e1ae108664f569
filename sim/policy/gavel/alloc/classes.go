package alloc

import (
	"encoding/binary"
	"math"
	"strconv"

	"github.com/schedlab/schedlab/sim/policy/gavel/plan"
)

// fclass is a class of interchangeable jobs: same planned throughputs,
// scale factor, weight and water-filling state (and, with space sharing,
// the same job type). By symmetry and convexity an optimum exists in which
// all jobs of a class get the same row (spec 001 §2.11), so the LP has one
// row per class: exact, and independent of the number of jobs.
type fclass struct {
	key     string
	names   *classNames
	members []int
	sf      int
	w       float64 // weight in the max-min objective; 0 leaves it out
	level   float64 // water filling: ñ may not fall below this
	frozen  bool
	thr     []float64
	eq      float64
}

// classify groups jobs by key; plan gives each job's planned throughputs.
// Jobs are matched on the bits of their values (the map key), and only a
// new class pays for its readable key, which names its LP rows.
//
// names keeps each class's readable key and LP names from one recompute
// to the next (the classes of a run recur); nil makes them afresh.
func classify(in *plan.Input, planned [][]float64, w, level []float64, frozen []bool, byType bool, names map[string]*classNames) []*fclass {
	index := map[string]*fclass{}
	var out []*fclass
	var b []byte
	for i := range in.Jobs {
		p := &in.Jobs[i]
		b = b[:0]
		if byType {
			b = append(append(b, p.Job.Model...), 0)
			b = binary.LittleEndian.AppendUint64(b, uint64(p.Job.BatchSize))
		}
		b = binary.LittleEndian.AppendUint64(b, uint64(p.SF))
		b = binary.LittleEndian.AppendUint64(b, math.Float64bits(w[i]))
		b = binary.LittleEndian.AppendUint64(b, math.Float64bits(level[i]))
		b = append(b, boolByte(frozen[i]))
		for j, t := range planned[i] {
			b = binary.LittleEndian.AppendUint64(b, math.Float64bits(t))
			// An agnostic plan hides where a job can run; classes keep
			// jobs that can run on the same types together.
			b = append(b, boolByte(p.Thr[j] > 0))
		}
		c, ok := index[string(b)]
		if !ok {
			n := names[string(b)]
			if n == nil {
				n = &classNames{key: classKey(p, planned[i], w[i], level[i], frozen[i], byType)}
				if names != nil {
					names[string(b)] = n
				}
			}
			c = &fclass{key: n.key, names: n, sf: p.SF, w: w[i], level: level[i],
				frozen: frozen[i], thr: planned[i], eq: in.ThrEqual(planned[i])}
			index[string(b)] = c
			out = append(out, c)
		}
		c.members = append(c.members, i)
	}
	return out
}

func boolByte(v bool) byte {
	if v {
		return 1
	}
	return 0
}

// classKey is a class's readable name: "sf1/w1/l0/false/0.62/2.6/4.4",
// with "/x" after a planned throughput on a type where the job cannot run.
func classKey(p *plan.Job, planned []float64, w, level float64, frozen, byType bool) string {
	var b []byte
	if byType {
		b = append(b, p.Job.Model...)
		b = strconv.AppendInt(append(b, '/'), int64(p.Job.BatchSize), 10)
		b = append(b, '/')
	}
	b = strconv.AppendInt(append(b, "sf"...), int64(p.SF), 10)
	b = strconv.AppendFloat(append(b, "/w"...), w, 'g', -1, 64)
	b = strconv.AppendFloat(append(b, "/l"...), level, 'g', -1, 64)
	b = strconv.AppendBool(append(b, '/'), frozen)
	for j, t := range planned {
		b = strconv.AppendFloat(append(b, '/'), t, 'g', -1, 64)
		if t > 0 && p.Thr[j] <= 0 {
			b = append(b, 'x')
		}
	}
	return string(b)
}

// classNames are a class's readable key and the names of its LP columns
// and rows, each made when first asked for.
type classNames struct {
	key             string
	s               []typedName // S|key|type, by type
	time, fair, low string
}

type typedName struct{ typ, name string }

// sCol is the name of the class's column on type j, called typ.
func (n *classNames) sCol(j int, typ string) string {
	if j >= len(n.s) {
		n.s = append(n.s, make([]typedName, j+1-len(n.s))...)
	}
	if t := &n.s[j]; t.name == "" || t.typ != typ {
		*t = typedName{typ, "S|" + n.key + "|" + typ}
	}
	return n.s[j].name
}

// row is the name of one of the class's rows: *slot, made as prefix|key
// the first time.
func (n *classNames) row(slot *string, prefix string) string {
	if *slot == "" {
		*slot = prefix + "|" + n.key
	}
	return *slot
}
