package policy

import (
	"github.com/schedlab/schedlab/sim/story"
)

// Explanation lays a placement decision out server by server, as
// kube-scheduler-simulator shows a pod's: for each server, the first
// filter that refused it and why, or else what each score gave it, and
// how many of the chosen GPUs are there. Pick never builds one, so a run
// pays nothing for it; Explain does, on request, for the same instant.
// It is the story package's record, so that a run's stories keep it.
type Explanation = story.Placement

// ServerVerdict is one server's row of an Explanation.
type ServerVerdict = story.ServerVerdict

// Explain runs every filter and score on every server for job r and
// says what Pick chooses.
func (p *Placement) Explain(r Request) Explanation {
	filters, scores := p.Filters(), p.Scores()
	ex := Explanation{Placement: p.name, Job: r.id, GPUs: r.gpus, MemoryGB: r.mem,
		Filters: names(filters), Scores: names(scores), Chosen: p.Pick(r)}
	if ex.Chosen == nil {
		ex.Why = p.WhyNot(r)
	}
	c := r.s.Cluster()
	for i := range c.Servers {
		srv := &c.Servers[i]
		v := ServerVerdict{Server: srv.ID, Type: srv.Type, Free: r.s.ServerFree(srv.ID), Usable: countFree(srv, r.fit())}
		for _, f := range filters {
			if why := f.Refuse(r, srv); why != "" {
				v.Filter, v.Reason = f.Name(), why
				break
			}
		}
		if v.Filter == "" {
			for _, sc := range scores {
				v.Scores = append(v.Scores, sc.Score(r, srv))
			}
		}
		for _, g := range ex.Chosen {
			if c.GPUs[g].Server == srv.ID {
				v.Taken++
			}
		}
		ex.Servers = append(ex.Servers, v)
	}
	return ex
}

func names[T interface{ Name() string }](xs []T) []string {
	out := make([]string, len(xs))
	for i, x := range xs {
		out[i] = x.Name()
	}
	return out
}
