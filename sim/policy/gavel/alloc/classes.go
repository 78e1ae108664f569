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
	// index and count are stepClasses.step's scratch: the class's place
	// in its step's list, and how many members it has found so far.
	index, count int
}

// classify groups jobs by key; plan gives each job's planned throughputs.
// Jobs are matched on the bits of their values (the map key), and only a
// new class pays for its readable key, which names its LP rows.
//
// names keeps each class's readable key and LP names from one recompute
// to the next (the classes of a run recur); nil makes them afresh. With
// steady, a class is named by what does not change while water filling
// raises and freezes it (see stepClasses); water filling itself uses a
// stepClasses, which finds the same classes with the same names for less.
func classify(in *plan.Input, planned [][]float64, w, level []float64, frozen []bool, byType, steady bool, names map[string]*classNames) []*fclass {
	if steady {
		return newStepClasses(in, planned, byType).step(w, level, frozen, names, 1)
	}
	index := map[string]*fclass{}
	var out []*fclass
	var b []byte
	for i := range in.Jobs {
		p := &in.Jobs[i]
		b = classBits(b[:0], p, planned[i], byType)
		b = binary.LittleEndian.AppendUint64(b, math.Float64bits(w[i]))
		b = binary.LittleEndian.AppendUint64(b, math.Float64bits(level[i]))
		b = append(b, boolByte(frozen[i]))
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

// stepClasses groups one recompute's jobs into classes at each step of
// water filling. A job's class is its classBits (fixed for the
// recompute, so numbered once here rather than written out at every
// step) and its weight of the step, level and state.
//
// A class is named by what does not change while water filling raises
// and freezes it (its job type, scale factor, job weight and planned
// throughputs, not its weight of the step, level or state), so the LPs of
// successive steps share their names and each step's LP starts from the
// basis of the step before; a class that shares those with another of
// the same step is told apart by its first job's id.
type stepClasses struct {
	in      *plan.Input
	planned [][]float64
	byType  bool
	ids     []int32 // by job: its classBits, numbered in order of first job
	nb      []byte
	// steady numbers each job's steady traits (steadyBits), and plain
	// holds the names found for each (its name without a job id), once
	// a step has looked them up: the steps of a recompute look up each
	// class's name once, not once a step. A names store started afresh
	// during the recompute (LPs.classNames) would hold new names of the
	// same text, so which are used changes no LP.
	steady []int32
	plain  []*classNames
	// byID is step's scratch: this step's classes of each classBits
	// (a few at most: its jobs at different levels or states); of, its
	// class's place in the step's list, by job; classes, how many the
	// last step had.
	byID    [][]*fclass
	of      []int
	classes int
}

func newStepClasses(in *plan.Input, planned [][]float64, byType bool) *stepClasses {
	sc := &stepClasses{in: in, planned: planned, byType: byType, ids: make([]int32, len(in.Jobs)), steady: make([]int32, len(in.Jobs))}
	seen, steadySeen := map[string]int32{}, map[string]int32{}
	var b []byte
	for i := range in.Jobs {
		p := &in.Jobs[i]
		b = classBits(b[:0], p, planned[i], byType)
		id, ok := seen[string(b)]
		if !ok {
			id = int32(len(seen))
			seen[string(b)] = id
		}
		sc.ids[i] = id
		b = steadyBits(b, p)
		sid, ok := steadySeen[string(b)]
		if !ok {
			sid = int32(len(steadySeen))
			steadySeen[string(b)] = sid
		}
		sc.steady[i] = sid
	}
	sc.byID = make([][]*fclass, len(seen))
	sc.plain = make([]*classNames, len(steadySeen))
	return sc
}

// steadyBits appends to a job's classBits the rest of what its steady
// name is found by: its job weight and entity.
func steadyBits(b []byte, p *plan.Job) []byte {
	b = binary.LittleEndian.AppendUint64(b, math.Float64bits(p.Weight))
	return append(append(b, p.Job.Entity...), 0)
}

// step groups the jobs by their classes at one step, given each job's
// weight, level and state (matched on the floats' bits). names is as for
// classify; stamp must differ from every earlier step's that used names
// (it marks the names this step has given, in classNames.taken).
func (sc *stepClasses) step(w, level []float64, frozen []bool, names map[string]*classNames, stamp uint64) []*fclass {
	for id := range sc.byID {
		sc.byID[id] = sc.byID[id][:0]
	}
	// Water filling makes a step's classes many times a recompute, so
	// they come from one array (as many as the step before had, grown
	// when a step has more), and their members from one slice: each job's
	// class is found first (of), then every class's members are carved
	// from the slice by their counts and filled in job order.
	slab := make([]fclass, 0, max(sc.classes, len(sc.byID)))
	out := make([]*fclass, 0, cap(slab))
	sc.of = resizeInts(sc.of, len(sc.in.Jobs))
	of := sc.of
	for i := range sc.in.Jobs {
		wb, lb := math.Float64bits(w[i]), math.Float64bits(level[i])
		var c *fclass
		for _, x := range sc.byID[sc.ids[i]] {
			if x.frozen == frozen[i] && math.Float64bits(x.w) == wb && math.Float64bits(x.level) == lb {
				c = x
				break
			}
		}
		if c == nil {
			p := &sc.in.Jobs[i]
			n := sc.steadyNames(i, p, sc.planned[i], names, stamp)
			if len(slab) == cap(slab) {
				slab = make([]fclass, 0, 2*cap(slab)+1)
			}
			slab = append(slab, fclass{key: n.key, names: n, sf: p.SF, w: w[i], level: level[i],
				frozen: frozen[i], thr: sc.planned[i], eq: sc.in.ThrEqual(sc.planned[i]), index: len(out)})
			c = &slab[len(slab)-1]
			sc.byID[sc.ids[i]] = append(sc.byID[sc.ids[i]], c)
			out = append(out, c)
		}
		of[i] = c.index
		c.count++
	}
	sc.classes = len(out)
	members := make([]int, len(sc.in.Jobs))
	for _, c := range out {
		c.members, members = members[:0:c.count], members[c.count:]
	}
	for i, k := range of {
		c := out[k]
		c.members = append(c.members, i)
	}
	return out
}

// again makes cls, the classes the last step returned, this step's
// classes if they still are, and reports whether they are: each class's
// weight, level and state are set from its members' (in w, level and
// frozen), which must agree, and no two classes of one classBits may then
// agree (step would make them one: water filling now and then freezes
// two classes of one type at one level). The members and their order are
// step's then, and so are the names' texts (given by the classes' first
// jobs, in class order); only the names' objects may differ from step's,
// where a names store started afresh. On false nothing is changed but
// step's scratch: the caller calls step.
func (sc *stepClasses) again(cls []*fclass, w, level []float64, frozen []bool) bool {
	bits := math.Float64bits
	for _, cl := range cls {
		m0 := cl.members[0]
		wb, lb, fr := bits(w[m0]), bits(level[m0]), frozen[m0]
		for _, m := range cl.members[1:] {
			if bits(w[m]) != wb || bits(level[m]) != lb || frozen[m] != fr {
				return false
			}
		}
	}
	for id := range sc.byID {
		sc.byID[id] = sc.byID[id][:0]
	}
	for _, cl := range cls {
		m0 := cl.members[0]
		id := sc.ids[m0]
		for _, x := range sc.byID[id] {
			x0 := x.members[0]
			if frozen[x0] == frozen[m0] && bits(w[x0]) == bits(w[m0]) && bits(level[x0]) == bits(level[m0]) {
				return false
			}
		}
		sc.byID[id] = append(sc.byID[id], cl)
	}
	for _, cl := range cls {
		m0 := cl.members[0]
		cl.w, cl.level, cl.frozen = w[m0], level[m0], frozen[m0]
	}
	return true
}

// resizeInts returns s with length n, reusing its storage.
func resizeInts(s []int, n int) []int {
	if cap(s) < n {
		return make([]int, n)
	}
	return s[:n]
}

// steadyNames names a new class of water filling (see stepClasses): by
// its steady traits, or, if a class of this step already has that name,
// by those and its first job's id.
func (sc *stepClasses) steadyNames(i int, p *plan.Job, planned []float64, names map[string]*classNames, stamp uint64) *classNames {
	if n := sc.plain[sc.steady[i]]; n != nil && n.taken != stamp {
		n.taken = stamp
		return n
	}
	return sc.lookUp(i, p, planned, names, stamp)
}

// lookUp is steadyNames for a job whose steady name this recompute has
// not found yet, or whose steady name this step has given already.
func (sc *stepClasses) lookUp(i int, p *plan.Job, planned []float64, names map[string]*classNames, stamp uint64) *classNames {
	byType := sc.byType
	nb := steadyBits(classBits(sc.nb[:0], p, planned, byType), p)
	key := func() string { return steadyKey(p, planned, byType) }
	n := sc.plain[sc.steady[i]]
	if n == nil {
		n = names[string(nb)]
	}
	if n != nil {
		// Without a names store n is nil here and nothing is kept: every
		// class is named afresh, as its stamps may repeat (LPs.nextStamp).
		sc.plain[sc.steady[i]] = n
	}
	if n != nil && n.taken == stamp {
		nb = strconv.AppendInt(append(nb, '#'), int64(p.ID), 10)
		n = names[string(nb)]
		key = func() string {
			return steadyKey(p, planned, byType) + "#" + strconv.FormatInt(int64(p.ID), 10)
		}
	}
	sc.nb = nb
	if n == nil {
		n = &classNames{key: key()}
		if names != nil {
			names[string(nb)] = n
		}
	}
	n.taken = stamp
	return n
}

// classBits appends what a job's class is matched on besides its
// water-filling state.
func classBits(b []byte, p *plan.Job, planned []float64, byType bool) []byte {
	if byType {
		b = append(append(b, p.Job.Model...), 0)
		b = binary.LittleEndian.AppendUint64(b, uint64(p.Job.BatchSize))
	}
	b = binary.LittleEndian.AppendUint64(b, uint64(p.SF))
	for j, t := range planned {
		b = binary.LittleEndian.AppendUint64(b, math.Float64bits(t))
		// An agnostic plan hides where a job can run; classes keep
		// jobs that can run on the same types together.
		b = append(b, boolByte(p.Thr[j] > 0))
	}
	return b
}

// steadyKey is a water-filling class's readable name: its steady traits,
// and its entity after "@", since classes of two entities with the same
// traits are two classes whose LP columns and rows need their own names.
func steadyKey(p *plan.Job, planned []float64, byType bool) string {
	k := classKey(p, planned, p.Weight, 0, false, byType)
	if p.Job.Entity != "" {
		k += "@" + p.Job.Entity
	}
	return k
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
	taken           uint64      // the stamp of the last step that gave these names (stepClasses)
	s               []typedName // S|key|type, by type
	pairs           map[pairKey]typedName
	time, fair, low string
}

type typedName struct{ typ, name string }

// pairKey is a pair column's partner class and GPU type, by index.
type pairKey struct {
	with *classNames
	j    int
}

// pairCol is the name of the column of pairs of this class with class
// o on type j, called typ: P|key|o's key|typ, made the first time (space
// sharing's LPs have a pair column for most pairs of classes on every
// type, and the classes recur from one recompute to the next).
func (n *classNames) pairCol(o *classNames, j int, typ string) string {
	k := pairKey{o, j}
	if t, ok := n.pairs[k]; ok && t.typ == typ {
		return t.name
	}
	if n.pairs == nil {
		n.pairs = map[pairKey]typedName{}
	}
	name := "P|" + n.key + "|" + o.key + "|" + typ
	n.pairs[k] = typedName{typ, name}
	return name
}

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
