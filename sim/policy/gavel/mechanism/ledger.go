package mechanism

import "github.com/schedlab/schedlab/sim/workload"

// ckey names a combination: a job alone (b = -1) or a pair.
type ckey struct{ a, b workload.JobID }

func (k ckey) members() []workload.JobID {
	if k.b < 0 {
		return []workload.JobID{k.a}
	}
	return []workload.JobID{k.a, k.b}
}

// ledger is the target allocation and what each combination received
// since it was computed, from which each round's priorities follow
// (spec 001 §3.2).
type ledger struct {
	types   int                // GPU types
	roundS  float64            // round length
	clean   bool               // mode clean
	keys    []ckey             // combinations in the current allocation, then singles added since
	x       map[ckey][]float64 // the target: each combination's share of each type
	recv    map[ckey][]float64 // seconds on each type since the reset, from R/2
	own     map[ckey][]float64 // clean mode: seconds on each type since the reset, from a prior of X·R/2
	deficit map[ckey][]float64 // time owed by earlier allocations, a tie-breaker
	total   []float64          // the types' time since the reset, over all combinations
	due     bool               // jobs arrived or finished since the last recompute
	resets  int                // recomputes so far
	reset   float64            // time of the last recompute

	resetAtZero bool // quirk ResetAtZero: a last recompute at t = 0 does not hold the next one back
	force       bool // quirk IdleUntilArrival: the next recompute may not wait
}

func (l *ledger) init(types int, roundS float64, clean bool) {
	l.types, l.roundS, l.clean = types, roundS, clean
	l.total = make([]float64, types)
	l.x, l.recv, l.deficit, l.own = map[ckey][]float64{}, map[ckey][]float64{}, map[ckey][]float64{}, map[ckey][]float64{}
}

// arrive adds a job alone, with no target yet and R/2 received on every
// type, and asks for a recompute.
func (l *ledger) arrive(id workload.JobID) {
	k := ckey{id, -1}
	l.keys = append(l.keys, k)
	l.recv[k] = fill(l.types, l.roundS/2)
	for j := range l.total {
		l.total[j] += l.roundS / 2
	}
	l.due = true
}

// ran adds exec seconds of combination k on type j.
func (l *ledger) ran(k ckey, j int, exec float64) {
	if r, ok := l.recv[k]; ok {
		r[j] += exec
	}
	if o, ok := l.own[k]; ok {
		o[j] += exec
	}
	l.total[j] += exec
}

// dueAt: a recompute was asked for and the last one is at least minS old
// (or there was none).
func (l *ledger) dueAt(now, minS float64) bool {
	return l.due && (l.resets == 0 || l.force || (l.resetAtZero && l.reset == 0) || now >= l.reset+minS)
}

// restart begins the allocation x over the combinations keys at time now:
// deficit += X·(time since the last reset) − (received − R/2); received
// goes back to R/2 (0 for a pair that is new).
func (l *ledger) restart(now float64, keys []ckey, newX map[ckey][]float64) {
	elapsed := now - l.reset
	if l.resets == 0 {
		elapsed = 0
	}
	newRecv := map[ckey][]float64{}
	newDef := map[ckey][]float64{}
	for j := range l.total {
		l.total[j] = 0
	}
	for _, k := range keys {
		d := make([]float64, l.types)
		if old, ok := l.deficit[k]; ok {
			copy(d, old)
		}
		if r, ok := l.recv[k]; ok {
			x := l.x[k]
			for j := range d {
				xv := 0.0
				if x != nil {
					xv = x[j]
				}
				d[j] += xv*elapsed - (r[j] - l.roundS/2)
			}
			newRecv[k] = fill(l.types, l.roundS/2)
		} else if k.b >= 0 {
			newRecv[k] = make([]float64, l.types) // a new pair starts at 0
		} else {
			newRecv[k] = fill(l.types, l.roundS/2)
		}
		newDef[k] = d
		for j, v := range newRecv[k] {
			l.total[j] += v
		}
	}
	l.keys, l.x, l.recv, l.deficit = keys, newX, newRecv, newDef
	l.own = map[ckey][]float64{}
	for k, x := range newX {
		o := make([]float64, len(x))
		for j, v := range x {
			o[j] = v * l.roundS / 2
		}
		l.own[k] = o
	}
	l.reset, l.due, l.force = now, false, false
	l.resets++
}

// priority is X over the fraction received since the last reset; 0 where
// X = 0. ref-compat uses the reference's fraction, the combination's share
// of the type's time (X·1e9 before anything was received). clean uses the
// paper's X ÷ rounds received: the fraction of the combination's own time
// since the reset spent on the type, from a prior of X, so that a job whose
// target is split between types gets each share (the reference's fraction
// is 1 for a job alone on its type, whatever its target there).
func (l *ledger) priority(k ckey, j int, x, now float64) float64 {
	if x <= 0 {
		return 0
	}
	if l.clean {
		if o := l.own[k]; o != nil && o[j] > 0 {
			return x * (now - l.reset + l.roundS/2) / o[j]
		}
		return x * 1e9
	}
	r := l.recv[k]
	if r == nil || r[j] <= 0 || l.total[j] <= 0 {
		return x * 1e9
	}
	return x * l.total[j] / r[j]
}

func fill(n int, v float64) []float64 {
	x := make([]float64, n)
	for i := range x {
		x[i] = v
	}
	return x
}
