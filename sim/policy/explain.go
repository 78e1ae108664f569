package policy

import (
	"fmt"
	"strings"

	"github.com/schedlab/schedlab/sim/cluster"
	"github.com/schedlab/schedlab/sim/workload"
)

// Explanation lays a placement decision out server by server, as
// kube-scheduler-simulator shows a pod's: for each server, the first
// filter that refused it and why, or else what each score gave it, and
// how many of the chosen GPUs are there. Pick never builds one, so a run
// pays nothing for it; Explain does, on request, for the same instant.
type Explanation struct {
	Placement string
	Job       workload.JobID
	GPUs      int
	MemoryGB  float64  // per GPU; 0 when memory is not modelled
	Filters   []string // the filters' names, in the order they run
	Scores    []string // the scores' names, first deciding
	Servers   []ServerVerdict
	Chosen    []cluster.GPUID // what Pick returns; nil: the job waits
	Why       string          // why it waits, as the decision log says
}

// ServerVerdict is one server's row of an Explanation.
type ServerVerdict struct {
	Server cluster.ServerID
	Type   string
	Free   int    // GPUs holding no job
	Usable int    // free GPUs with the job's memory free
	Filter string // the filter that refused the server; "" if none did
	Reason string // why it refused
	// Scores holds one value per Explanation.Scores, for a server no
	// filter refused.
	Scores []float64
	Taken  int // how many of Chosen are on this server
}

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

// String renders the explanation as a plain-text table, one server a
// line.
func (e Explanation) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s placement of job %d (%d GPUs", e.Placement, e.Job, e.GPUs)
	if e.MemoryGB > 0 {
		fmt.Fprintf(&b, ", %.3g GB each", e.MemoryGB)
	}
	b.WriteString("): ")
	if e.Chosen == nil {
		b.WriteString("waits: " + e.Why)
	} else {
		fmt.Fprintf(&b, "GPUs %v", e.Chosen)
	}
	for _, v := range e.Servers {
		fmt.Fprintf(&b, "\n  server %d (%s, %d free, %d usable): ", v.Server, v.Type, v.Free, v.Usable)
		if v.Filter != "" {
			fmt.Fprintf(&b, "refused by %s: %s", v.Filter, v.Reason)
			continue
		}
		parts := make([]string, len(v.Scores))
		for i, x := range v.Scores {
			parts[i] = fmt.Sprintf("%s %.4g", e.Scores[i], x)
		}
		b.WriteString("passes")
		if len(parts) > 0 {
			b.WriteString("; " + strings.Join(parts, ", "))
		}
		if v.Taken > 0 {
			fmt.Fprintf(&b, "; takes %d", v.Taken)
		}
	}
	return b.String()
}

func names[T interface{ Name() string }](xs []T) []string {
	out := make([]string, len(xs))
	for i, x := range xs {
		out[i] = x.Name()
	}
	return out
}
