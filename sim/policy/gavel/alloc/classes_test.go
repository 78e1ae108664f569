package alloc

import (
	"encoding/binary"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"testing"

	"github.com/schedlab/schedlab/sim/policy/gavel/plan"
)

// byBytes is water filling's grouping stated directly, as it was written
// before stepClasses: each job's whole key written out at every step, and
// a map of the names this step has given.
func byBytes(in *plan.Input, planned [][]float64, w, level []float64, frozen []bool, byType bool, names map[string]*classNames) []*fclass {
	index := map[string]*fclass{}
	taken := map[*classNames]bool{}
	var out []*fclass
	for i := range in.Jobs {
		p := &in.Jobs[i]
		b := classBits(nil, p, planned[i], byType)
		b = binary.LittleEndian.AppendUint64(b, math.Float64bits(w[i]))
		b = binary.LittleEndian.AppendUint64(b, math.Float64bits(level[i]))
		b = append(b, boolByte(frozen[i]))
		c, ok := index[string(b)]
		if !ok {
			nb := classBits(nil, p, planned[i], byType)
			nb = binary.LittleEndian.AppendUint64(nb, math.Float64bits(p.Weight))
			nb = append(append(nb, p.Job.Entity...), 0)
			key := steadyKey(p, planned[i], byType)
			n := names[string(nb)]
			if n != nil && taken[n] {
				nb = strconv.AppendInt(append(nb, '#'), int64(p.ID), 10)
				n = names[string(nb)]
				key += "#" + strconv.FormatInt(int64(p.ID), 10)
			}
			if n == nil {
				n = &classNames{key: key}
				names[string(nb)] = n
			}
			taken[n] = true
			c = &fclass{key: n.key, sf: p.SF, w: w[i], level: level[i], frozen: frozen[i], thr: planned[i]}
			index[string(b)] = c
			out = append(out, c)
		}
		c.members = append(c.members, i)
	}
	return out
}

// TestStepClassesSameAsByBytes: over many water-filling steps of random
// recomputes (weights, levels and freezing drawn so that classes split,
// merge and share their steady traits, entities included), and with the
// names kept from step to step and recompute to recompute as a run keeps
// them, stepClasses finds the classes byBytes finds: same members, in the
// same order, with the same names; and so do the last step's classes
// when stepClasses.again keeps them.
func TestStepClassesSameAsByBytes(t *testing.T) {
	r := rand.New(rand.NewPCG(41, 42))
	lps := &LPs{}
	refNames := map[string]*classNames{}
	hashed, keptSeen, notKept := 0, 0, 0
	for trial := 0; trial < 60; trial++ {
		in := randomInput(r, false)
		for i := range in.Jobs {
			if r.IntN(3) == 0 {
				in.Jobs[i].Job.Entity = []string{"a", "b"}[r.IntN(2)]
			}
		}
		planned := (&Fair{Aware: trial%2 == 0}).plan(in)
		byType := trial%3 == 0
		sc := newStepClasses(in, planned, byType)
		n := len(in.Jobs)
		w, level, frozen := make([]float64, n), make([]float64, n), make([]bool, n)
		var last []*fclass
		for step := 0; step < 6; step++ {
			for i := range in.Jobs {
				frozen[i] = frozen[i] || r.IntN(4) == 0
				w[i] = 0
				if !frozen[i] {
					w[i] = in.Jobs[i].Weight
					level[i] = float64(r.IntN(3)) // few levels: jobs of one type at two levels
				}
			}
			kept := last != nil && sc.again(last, w, level, frozen)
			got := sc.step(w, level, frozen, lps.classNames(), lps.nextStamp())
			want := byBytes(in, planned, w, level, frozen, byType, refNames)
			if kept {
				keptSeen++
				got = last // the last step's classes, made this step's by again
			} else if last != nil {
				notKept++
			}
			last = got
			if len(got) != len(want) {
				t.Fatalf("trial %d step %d: %d classes, want %d", trial, step, len(got), len(want))
			}
			for c := range got {
				g, x := got[c], want[c]
				if g.key != x.key || g.names.key != x.key || g.sf != x.sf || g.w != x.w || g.level != x.level || g.frozen != x.frozen || !slices.Equal(g.members, x.members) {
					t.Fatalf("trial %d step %d class %d: got %s %v, want %s %v", trial, step, c, g.key, g.members, x.key, x.members)
				}
				for _, ch := range g.key {
					if ch == '#' {
						hashed++
						break
					}
				}
			}
		}
	}
	if hashed < 20 || keptSeen < 20 || notKept < 20 {
		t.Errorf("only %d classes were told apart by their first job; the last step's classes kept %d times, not %d times", hashed, keptSeen, notKept)
	}
	t.Logf("%d classes told apart by their first job; the last step's classes kept %d times, not %d times", hashed, keptSeen, notKept)
}
