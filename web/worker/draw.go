package worker

import (
	"encoding/json"
	"fmt"
	"slices"

	"github.com/schedlab/schedlab/sim/cluster"
	"github.com/schedlab/schedlab/sim/engine"
	"github.com/schedlab/schedlab/sim/experiment"
	"github.com/schedlab/schedlab/sim/plot"
	"github.com/schedlab/schedlab/sim/results"
	"github.com/schedlab/schedlab/sim/scenario"
	"github.com/schedlab/schedlab/sim/workload"
	"github.com/schedlab/schedlab/web/protocol"
)

// draw renders figures of runs that finished elsewhere (typically one
// policy per worker): it rebuilds a report from their outputs and
// intervals and draws it exactly as a run draws its own figures.
func (h *Handler) draw(id int, req protocol.DrawRequest, bin map[string][]byte) {
	sc, perr := parse("", req.Document)
	if perr != nil {
		h.fail(id, *perr)
		return
	}
	rep, err := rebuild(sc, req, bin)
	if err != nil {
		h.fail(id, protocol.Error{Message: "drawing: " + err.Error()})
		return
	}
	format := req.Format
	if format == "" {
		format = "png"
	}
	if format != "png" && format != "svg" {
		h.fail(id, protocol.Error{Message: fmt.Sprintf("unknown figure format %q (want png or svg)", format)})
		return
	}
	// SVGs name their font instead of embedding it (two embedded fonts
	// made a three-line CDF 1.1 MB): the fallbacks sim/plot writes after
	// Liberation Sans start with Arial, whose widths it shares, so the
	// text keeps the size it was measured at.
	figs, err := rep.Figures(req.Seed, plot.Options{Width: req.Width, Height: req.Height, LogX: req.LogX})
	if err != nil {
		h.fail(id, protocol.Error{Message: "drawing: " + err.Error()})
		return
	}
	out := protocol.Drawn{Format: format, Figures: []protocol.Figure{}}
	files := map[string][]byte{}
	for _, f := range figs {
		if req.Figures != nil && !contains(req.Figures, f.Name) && !contains(req.Figures, f.Kind) {
			continue
		}
		var b []byte
		if format == "svg" {
			b, err = f.Figure.SVG()
		} else {
			b, err = f.Figure.PNG()
		}
		if err != nil {
			h.fail(id, protocol.Error{Message: "drawing " + f.Name + ": " + err.Error()})
			return
		}
		files[f.Name] = b
		out.Figures = append(out.Figures, protocol.Figure{Name: f.Name, Title: f.Title, Kind: f.Kind})
	}
	m := protocol.NewMessage(protocol.TypeDrawn, id, out)
	m.Bin = files
	h.send(m)
}

// rebuild turns a draw request back into the report the figures are drawn
// from. Only what the figures read is filled in: job records (completion
// times, models), per-model summaries, intervals and the cluster.
func rebuild(sc *scenario.Scenario, req protocol.DrawRequest, bin map[string][]byte) (*experiment.Report, error) {
	// A cluster drawn per seed (as SJF-BCO's paper redraws it for every
	// run) is the one the request's seed ran on.
	spec, err := sc.Cluster.ForSeed(req.Seed)
	if err != nil {
		return nil, err
	}
	c, err := cluster.New(spec)
	if err != nil {
		return nil, err
	}
	copied := *sc
	if req.Figures != nil {
		// Draw every usual kind and any other kind the request names; the
		// request's list then picks among them.
		copied.Plots = append([]string(nil), scenario.PlotKinds...)
		for _, k := range req.Figures {
			if !slices.Contains(copied.Plots, k) {
				copied.Plots = append(copied.Plots, k)
			}
		}
	}
	rep := &experiment.Report{Scenario: &copied}
	for k, dr := range req.Runs {
		var po results.PolicyOutput
		data := dr.Output
		if len(data) == 0 {
			data = bin[protocol.RunOutputKey(k)]
		}
		if err := json.Unmarshal(data, &po); err != nil {
			return nil, fmt.Errorf("run %d (%s): %w", k, dr.Label, err)
		}
		res := &engine.Result{Jobs: make([]engine.JobRecord, len(po.Jobs)), Series: engineSeries(po.Series)}
		for i, j := range po.Jobs {
			res.Jobs[i] = record(i, j)
		}
		if b, ok := bin[protocol.IntervalsKey(k)]; ok {
			iv, err := protocol.DecodeIntervals(b)
			if err != nil {
				return nil, err
			}
			for _, x := range iv {
				if int(x.GPU) < 0 || int(x.GPU) >= c.NumGPUs() || int(x.Job) < 0 || int(x.Job) >= len(res.Jobs) {
					return nil, fmt.Errorf("run %d (%s): interval on GPU %d for job %d is outside the cluster or the jobs", k, dr.Label, x.GPU, x.Job)
				}
				res.Intervals = append(res.Intervals, engine.Interval{GPU: cluster.GPUID(x.GPU), Job: engineJob(x.Job), StartS: x.StartS, EndS: x.EndS})
			}
		}
		run := &experiment.Run{Policy: dr.Label, PolicyName: dr.Name, Seed: req.Seed,
			Inputs: &scenario.Inputs{Cluster: c}, Result: res, ByModel: po.ByModel, Summary: po.Metrics}
		if po.Streamed && po.JCTCDF != nil {
			// no job records: the CDF comes thinned with the output
			run.Streamed, run.CDFX, run.CDFY = true, po.JCTCDF.X, po.JCTCDF.Y
		}
		rep.Runs = append(rep.Runs, run)
	}
	return rep, nil
}

// record rebuilds the fields of a job record that figures read.
func record(i int, j results.JobOutput) engine.JobRecord {
	r := engine.JobRecord{Job: engineJob(int32(i)), Name: j.ID, Model: j.Model, GPUs: j.GPUs, ArrivalS: j.ArrivalS,
		FirstStartS: -1, FinishS: -1, Status: engine.Pending}
	if j.StartS != nil {
		r.FirstStartS = *j.StartS
	}
	if j.QueueS != nil {
		r.QueueS = *j.QueueS
	}
	if j.FinishS != nil {
		r.FinishS = *j.FinishS
	}
	if j.Status == engine.Finished.String() {
		r.Status = engine.Finished
	}
	return r
}

func engineJob(i int32) workload.JobID { return workload.JobID(i) }

// engineSeries turns series read from a result back into the engine's,
// which the figures draw.
func engineSeries(ss []results.Series) []engine.Series {
	var out []engine.Series
	for _, s := range ss {
		out = append(out, engine.Series{Name: s.Name, Job: workload.JobID(s.Job), T: s.T, V: s.V})
	}
	return out
}
