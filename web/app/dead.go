package app

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/schedlab/schedlab/sim/results"
	"github.com/schedlab/schedlab/web/doc"
	"github.com/schedlab/schedlab/web/protocol"
)

// workerDied handles an engine worker that is gone: its Go program exited
// (out of memory, a fatal error) or the worker failed after it was
// ready. The worker is replaced; a run it was part of ends with a plain
// message and an offer to reduce the scenario, and a drawing it was
// doing fails, instead of waiting for it forever.
func (a *App) workerDied(w *worker, m protocol.Message) {
	p := a.pool
	why := deathCause(m)
	req := p.pending[w.busy]
	p.replace(w.id) // terminates it, forgets its request, starts another
	switch {
	case req == nil:
	case req.part != nil:
		r, part := req.run, req.part
		if r.State != RunRunning && r.State != RunCancelling {
			break
		}
		part.State = PartFailed
		if r.State == RunCancelling {
			a.finishIfStopped(r)
			break
		}
		size := a.Ed.Size()
		what := "The simulator stopped unexpectedly while running " + part.Label + " (" + why + ")"
		if strings.Contains(why, "out of memory") {
			what = "The simulator ran out of memory running " + part.Label + " on this scenario"
		}
		if size.Jobs > 0 && r.Doc == a.Ed.JSON() {
			what += " (" + size.Describe() + ")"
		}
		a.failRun(r, what)
		a.setNotice("", false)
		text := what + ". Try fewer jobs or GPUs."
		if label, ok := a.reduction(); ok && r.Doc == a.Ed.JSON() {
			a.note(NoteEngine, text, true, NoteAction{Name: "reduce", Label: label, do: a.Reduce})
		} else {
			a.note(NoteEngine, text, true)
		}
		a.finishIfStopped(r)
	case req.onDraw != nil:
		req.onDraw(protocol.NewMessage(protocol.TypeError, req.id, protocol.Error{Message: "the simulator stopped while drawing (" + why + ")"}))
	}
	p.dispatch()
}

// deathCause says in a few words why a worker died.
func deathCause(m protocol.Message) string {
	var text, all string
	if m.Type == protocol.TypeExit {
		var e protocol.Exit
		_ = json.Unmarshal(m.JSON, &e)
		all = e.Output
		if text = fatalLine(e.Output); text == "" {
			text = fmt.Sprintf("its Go program exited with code %d", e.Code)
		}
	} else {
		var e protocol.Error
		_ = json.Unmarshal(m.JSON, &e)
		text, all = e.Message, e.Message
	}
	if low := strings.ToLower(all); strings.Contains(low, "out of memory") || strings.Contains(low, "maximum memory size") ||
		strings.Contains(low, "array buffer allocation failed") || strings.Contains(low, "could not allocate memory") ||
		strings.Contains(low, "cannot allocate memory") {
		return "out of memory"
	}
	return text
}

// fatalLine picks Go's own account of why it stopped from its output.
func fatalLine(out string) string {
	for _, l := range strings.Split(out, "\n") {
		if strings.HasPrefix(l, "fatal error:") || strings.HasPrefix(l, "panic:") || strings.HasPrefix(l, "runtime: out of memory") {
			return strings.TrimSpace(l)
		}
	}
	return ""
}

// reduction describes what Reduce would do, if anything: halve the jobs,
// or the servers when the cluster is what is big.
func (a *App) reduction() (string, bool) {
	s := a.Ed.Size()
	if s.GPUs > AutoRunGPUs && s.JobRuns() <= AutoRunJobRuns {
		return "Halve the servers and run again", len(doc.List(a.Ed.Tree, "cluster.servers")) > 0
	}
	if s.Jobs < 2 {
		return "", false
	}
	return fmt.Sprintf("Run again with half the jobs (%s)", results.Thousands(s.Jobs/2)), true
}

// Reduce halves the scenario's jobs (or its servers, when the cluster is
// what is big) and runs it again.
func (a *App) Reduce() {
	s := a.Ed.Size()
	half := func(path string) {
		if n, ok := a.Ed.Number(path); ok && n >= 2 {
			a.Ed.SetValue(path, json.Number(strconv.Itoa(int(n)/2)))
		}
	}
	switch {
	case s.GPUs > AutoRunGPUs && s.JobRuns() <= AutoRunJobRuns:
		for i := range doc.List(a.Ed.Tree, "cluster.servers") {
			half(doc.Index("cluster.servers", i) + ".count")
		}
	case s.JobsPath == "workload.jobs":
		jobs := doc.List(a.Ed.Tree, "workload.jobs")
		a.Ed.structural(func() { a.Ed.Tree, _ = doc.Set(a.Ed.Tree, "workload.jobs", jobs[:len(jobs)/2]) })
	default:
		half(s.JobsPath)
	}
	a.dropNote(NoteEngine)
	a.save()
	a.Ed.CheckNow()
	if a.Ed.Valid() {
		a.Tab = TabResults
		a.StartRun()
	} else {
		a.Tab = TabScenario
	}
	a.setNotice("Halved the scenario: now "+a.Ed.Size().Describe()+".", false)
}
