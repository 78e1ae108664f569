package learn

import (
	"sort"
	"strconv"
	"strings"
)

// What the later lessons read of a run's GPU intervals: preemptions,
// jobs sharing GPUs, jobs spread over servers, waits on scattered GPUs.

// Preemption is an instant at which a running job lost its GPUs before it
// was done: Attained is the GPU-seconds it had run by then, By the job
// that started on one of its GPUs at that instant (-1 if none).
type Preemption struct {
	T        float64
	Job, By  int
	Attained float64
}

// Preemptions lists policy p's preemptions in time order.
func (r *Run) Preemptions(p *Policy) []Preemption {
	ends := map[[2]float64]bool{} // (job, end) seen
	var out []Preemption
	for _, iv := range p.Intervals {
		j := p.Out.Jobs[iv.Job]
		if j.FinishS != nil && *j.FinishS <= iv.EndS || ends[[2]float64{float64(iv.Job), iv.EndS}] {
			continue
		}
		ends[[2]float64{float64(iv.Job), iv.EndS}] = true
		pr := Preemption{T: iv.EndS, Job: int(iv.Job), By: -1}
		for _, x := range p.Intervals {
			if x.Job == iv.Job && x.EndS <= iv.EndS {
				pr.Attained += x.EndS - x.StartS
			}
			if x.StartS == iv.EndS && x.GPU == iv.GPU && x.Job != iv.Job {
				pr.By = int(x.Job)
			}
		}
		out = append(out, pr)
	}
	sort.SliceStable(out, func(a, b int) bool { return out[a].T < out[b].T })
	return out
}

// Scattered is an instant at which the oldest waiting job, Head, fits in
// the free GPUs of the cluster but on no one server.
type Scattered struct {
	State
	Head int
	// MostOnOne is the most free GPUs of any one server.
	MostOnOne int
}

// FirstScattered finds the first instant of policy p's run at which the
// oldest waiting job could run on the free GPUs if it could spread over
// servers, but no server has room for all of it.
func (r *Run) FirstScattered(p *Policy) (Scattered, bool) {
	for _, t := range p.Events() {
		st := r.At(p, t)
		if len(st.Waiting) == 0 {
			continue
		}
		head := st.Waiting[0]
		need := p.Out.Jobs[head].GPUs
		most := 0
		for _, f := range st.Free {
			most = max(most, f)
		}
		if need <= st.FreeGPUs() && need > most {
			return Scattered{State: st, Head: head, MostOnOne: most}, true
		}
	}
	return Scattered{}, false
}

// gpusAt are the GPUs each job holds at t, by job index.
func (p *Policy) gpusAt(t float64) map[int][]int {
	on := map[int][]int{}
	for _, iv := range p.Intervals {
		if iv.StartS <= t && t < iv.EndS {
			on[int(iv.Job)] = append(on[int(iv.Job)], int(iv.GPU))
		}
	}
	for _, g := range on {
		sort.Ints(g)
	}
	return on
}

// SharedGPUs counts the GPUs that hold more than one job at t, and
// returns the pairs of jobs sharing them (each pair once).
func (p *Policy) SharedGPUs(t float64) (int, [][2]int) {
	by := map[int][]int{}
	for _, iv := range p.Intervals {
		if iv.StartS <= t && t < iv.EndS {
			by[int(iv.GPU)] = append(by[int(iv.GPU)], int(iv.Job))
		}
	}
	gpus := make([]int, 0, len(by))
	for g := range by {
		gpus = append(gpus, g)
	}
	sort.Ints(gpus)
	n := 0
	seen := map[[2]int]bool{}
	var pairs [][2]int
	for _, g := range gpus {
		js := by[g]
		if len(js) < 2 {
			continue
		}
		n++
		sort.Ints(js)
		pair := [2]int{js[0], js[1]}
		if !seen[pair] {
			seen[pair] = true
			pairs = append(pairs, pair)
		}
	}
	return n, pairs
}

// SharedStarts counts the jobs that started for the first time on a GPU
// another job already held.
func (p *Policy) SharedStarts() int {
	n := 0
	for i, j := range p.Out.Jobs {
		if j.StartS == nil {
			continue
		}
		t := *j.StartS
		mine := map[int]bool{}
		for _, iv := range p.Intervals {
			if int(iv.Job) == i && iv.StartS == t {
				mine[int(iv.GPU)] = true
			}
		}
		for _, iv := range p.Intervals {
			if int(iv.Job) != i && mine[int(iv.GPU)] && iv.StartS <= t && t < iv.EndS {
				n++
				break
			}
		}
	}
	return n
}

// ServersOf are the servers job i runs on at t.
func (r *Run) ServersOf(p *Policy, i int, t float64) []int {
	of := r.serverOf()
	set := map[int]bool{}
	for _, g := range p.gpusAt(t)[i] {
		if g < len(of) {
			set[of[g]] = true
		}
	}
	out := make([]int, 0, len(set))
	for s := range set {
		out = append(out, s)
	}
	sort.Ints(out)
	return out
}

// Split counts the jobs whose first placement spread over several servers.
func (r *Run) Split(p *Policy) int {
	n := 0
	for i, j := range p.Out.Jobs {
		if j.StartS != nil && len(r.ServersOf(p, i, *j.StartS)) > 1 {
			n++
		}
	}
	return n
}

// seconds reads a duration as the page writes it ("1363.7 s", "2.3 min",
// "1.27 h"), false when it is not one.
func seconds(s string) (float64, bool) {
	f := strings.Fields(strings.TrimSpace(s))
	if len(f) != 2 {
		return 0, false
	}
	v, err := strconv.ParseFloat(f[0], 64)
	if err != nil {
		return 0, false
	}
	switch f[1] {
	case "s":
		return v, true
	case "min":
		return v * 60, true
	case "h":
		return v * 3600, true
	case "d":
		return v * 86400, true
	}
	return 0, false
}
