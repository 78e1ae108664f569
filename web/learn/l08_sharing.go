package learn

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"
)

// Lesson 8: sharing a GPU: interference and memory, SJF-BSBF's
// share-or-wait, and OJPP's memory collisions.
var lessonSharing = &Lesson{
	ID:       "sharing",
	Title:    "Sharing a GPU: interference, memory, share or wait",
	Minutes:  9,
	Scenario: "learn-sharing",
	Facts: func(r *Run) map[string]string {
		m := map[string]string{}
		if sc := r.Scenario; sc != nil && len(sc.Cluster.Servers) > 0 {
			m["mem"] = num(sc.Cluster.Servers[0].GPUMemoryGB)
		}
		if xi, ok := uniformXi(r); ok {
			m["xi"] = num(xi)
		}
		return facts(r, m)
	},
	Steps: []Step{
		{Title: "Two jobs on one GPU", Paras: []string{
			"A job does not always use its GPU fully. Two jobs can share a GPU: both run at once, so neither waits, but each runs slower than alone. That slowdown is interference; here each job of a pair runs {xi} times as long as alone (ξ = {xi}). Both must also fit in the GPU's memory ({mem} GB here).",
			"Is sharing worth it? If a short job arrives while a long one runs, sharing lets the short one finish soon, at the cost of slowing the long one. If two long jobs share, both are slowed for a long time, and waiting might have been better.",
		}},
		{Title: "Share or wait", Paras: []string{
			"SJF never shares. SJF-FFS shares whenever a waiting job fits beside a running one. SJF-BSBF (Luo et al., 2024) asks, for each pair, which finishes sooner on average: sharing now, or waiting until the running job is done. It shares only when sharing wins.",
			"Memory can be the limit too. OJPP (Yu et al., 2024) packs jobs onto few GPUs by predicting each one's memory; when two jobs' memory peaks come together and exceed the GPU's memory, a memory collision stops one of them. OJPP keeps the chance of a collision low; the gallery's OJPP figures show it.",
			"Here {jobs} single-GPU jobs arrive over about {arrival} at {gpus} GPUs.",
		}},
	},
	Question: Question{
		Prompt:  "Which policy will have the lowest average JCT?",
		Choices: []string{"SJF (never shares)", "SJF-FFS (shares whenever it fits)", "SJF-BSBF (shares when it pays)"},
		Truth: func(r *Run) (float64, error) {
			ps, err := sharingTrio(r)
			if err != nil {
				return 0, err
			}
			best := 0
			for i, p := range ps {
				if p.Out.Metrics.AvgJCT < ps[best].Out.Metrics.AvgJCT {
					best = i
				}
			}
			return float64(best), nil
		},
	},
	Figures: []string{FigureGantt},
	Explain: func(r *Run) ([]string, error) {
		ps, err := sharingTrio(r)
		if err != nil {
			return nil, err
		}
		s, f, b := ps[0], ps[1], ps[2]
		n := len(s.Out.Jobs)
		out := []string{fmt.Sprintf("Average JCT: SJF %s, SJF-FFS %s, SJF-BSBF %s. SJF-FFS started %d of the %d jobs beside another job, SJF-BSBF %d, SJF %d.",
			dur(s.Out.Metrics.AvgJCT), dur(f.Out.Metrics.AvgJCT), dur(b.Out.Metrics.AvgJCT), f.SharedStarts(), n, b.SharedStarts(), s.SharedStarts())}
		shares, waits := 0, 0
		for _, e := range b.Log {
			if d, ok := parsePair(e.Msg); ok {
				if d.share {
					shares++
				} else {
					waits++
				}
			}
		}
		if shares+waits > 0 {
			out = append(out, fmt.Sprintf("SJF-BSBF weighed sharing %d times and found it paid %d times; %d times it chose to wait.", shares+waits, shares, waits))
		}
		if d, _, ok := firstShare(b); ok {
			line := fmt.Sprintf("One of its reckonings, at %s: %s had %s left; %s, new, needs %s alone. Sharing, both run %s times slower", dur(d.t), d.running, dur(d.left), d.newJob, dur(d.alone), num(d.xi))
			if sh, wt, ok := d.pairAverages(); ok && math.Abs(sh-d.ifShared) < 1 && math.Abs(wt-d.ifWaits) < 1 {
				line += fmt.Sprintf(": the pair's average completion is %s if they share, against %s if %s waits for %s to finish.", dur(sh), dur(wt), d.newJob, d.running)
			} else {
				line += fmt.Sprintf(": by SJF-BSBF's reckoning the pair's average completion is %s if they share, %s if %s waits.", dur(d.ifShared), dur(d.ifWaits), d.newJob)
			}
			out = append(out, line+" So it shares.")
		}
		return out, nil
	},
	Moment: func(r *Run) (Moment, error) {
		ps, err := sharingTrio(r)
		if err != nil {
			return Moment{}, err
		}
		d, _, ok := firstShare(ps[2])
		if !ok {
			return Moment{}, fmt.Errorf("SJF-BSBF shared no GPU in this run")
		}
		return Moment{Policy: r.Index(ps[2]), T: d.t, Text: fmt.Sprintf("At %s, SJF-BSBF starts %s beside %s on a shared GPU: sharing beats waiting for this pair.", dur(d.t), d.newJob, d.running)}, nil
	},
	Challenge: Challenge{
		Text:   "Raise the interference until sharing blindly stops paying: make SJF-FFS's average JCT at least 50 % worse than SJF's, while SJF-BSBF stays within 5 % of SJF's.",
		Hint:   "The slowdown of two jobs sharing a GPU is ξ. At what ξ does sharing stop being worth it, and who notices?",
		Fields: []Field{{"perf.params.xi.uniform", "Slowdown when sharing (ξ)"}},
		Check: func(r *Run) (bool, string) {
			ps, err := sharingTrio(r)
			if err != nil {
				return false, err.Error()
			}
			s, f, b := ps[0].Out.Metrics.AvgJCT, ps[1].Out.Metrics.AvgJCT, ps[2].Out.Metrics.AvgJCT
			xi := ""
			if x, ok := uniformXi(r); ok {
				xi = fmt.Sprintf("With ξ = %s, ", num(x))
			}
			status := fmt.Sprintf("%sSJF averages %s, SJF-FFS %s (%s) and SJF-BSBF %s (%s).", xi, dur(s), dur(f), change(s, f), dur(b), change(s, b))
			return f >= 1.5*s && math.Abs(b-s) <= 0.05*s, status
		},
	},
}

// sharingTrio finds lesson 8's SJF, SJF-FFS and SJF-BSBF.
func sharingTrio(r *Run) ([]*Policy, error) {
	var out []*Policy
	for _, l := range []string{"SJF", "SJF-FFS", "SJF-BSBF"} {
		p, err := r.Labelled(l)
		if err != nil {
			return nil, err
		}
		out = append(out, p)
	}
	return out, nil
}

// uniformXi reads the scenario's single slowdown ξ of jobs sharing a GPU.
func uniformXi(r *Run) (float64, bool) {
	sc := r.Single
	if sc == nil {
		sc = r.Scenario
	}
	if sc == nil || len(sc.Perf.Params) == 0 {
		return 0, false
	}
	var p struct {
		Xi struct {
			Model   string  `json:"model"`
			Uniform float64 `json:"uniform"`
		} `json:"xi"`
	}
	if err := json.Unmarshal(sc.Perf.Params, &p); err != nil || p.Xi.Model != "uniform" {
		return 0, false
	}
	return p.Xi.Uniform, true
}

// pairDecision is one share-or-wait reckoning of SJF-BSBF, as its
// decision log gives it.
type pairDecision struct {
	t                 float64
	newJob, running   string
	left, alone, xi   float64
	ifShared, ifWaits float64
	share             bool
}

// pairLine is the shape of a reckoning's log line (SJF-BSBF's
// "pair A (new) with B (running): time alone L_R ... → share"), as the
// steps of a small backtracking matcher rather than a regular expression:
// the regexp package and the Unicode tables it brings would be the
// page's only use of them, 0.12 MB of the module with brotli, and
// compiling it made the browser optimise the regexp compiler. It finds
// what `pair (\S+) \(new\) with (\S+) \(running\): time alone L_R (.+?) for
// the running job and L_N (.+?) for the new one; sharing slows them by ξ
// ([0-9.]+) and ([0-9.]+);.*mean JCT of the pair (.+?) if they share,
// (.+?) if the new job waits → (share|wait)` would (pairline_test.go
// checks that they agree).
var pairLine = []step{
	lit("pair "), nonSpaces, lit(" (new) with "), nonSpaces, lit(" (running): time alone L_R "),
	lazy, lit(" for the running job and L_N "), lazy, lit(" for the new one; sharing slows them by ξ "),
	digits, lit(" and "), digits, lit(";"), skip, lit("mean JCT of the pair "),
	lazy, lit(" if they share, "), lazy, lit(" if the new job waits → "), shareOrWait,
}

// parsePair reads a reckoning from a decision-log line.
func parsePair(msg string) (pairDecision, bool) {
	m := matchSteps(pairLine, msg)
	if m == nil {
		return pairDecision{}, false
	}
	d := pairDecision{newJob: m[1], running: m[2], share: m[9] == "share"}
	var ok1, ok2, ok3, ok4 bool
	d.left, ok1 = seconds(m[3])
	d.alone, ok2 = seconds(m[4])
	d.ifShared, ok3 = seconds(m[7])
	d.ifWaits, ok4 = seconds(m[8])
	x1, err1 := strconv.ParseFloat(m[5], 64)
	x2, err2 := strconv.ParseFloat(m[6], 64)
	if !ok1 || !ok2 || !ok3 || !ok4 || err1 != nil || err2 != nil || x1 != x2 {
		return pairDecision{}, false
	}
	d.xi = x1
	return d, true
}

// pairAverages is the pair's average completion time from now, sharing
// (both slowed ξ times until the shorter is done, the other alone after)
// and waiting (the running job finishes, then the new one runs alone).
func (d pairDecision) pairAverages() (shared, waits float64, ok bool) {
	short, long := d.alone, d.left
	if short > long {
		short, long = long, short
	}
	first := d.xi * short
	shared = (first + first + long - short) / 2
	waits = (d.left + d.left + d.alone) / 2
	return shared, waits, d.xi > 0
}

// firstShare finds the first reckoning after which SJF-BSBF started the
// new job beside the running one, and its log index.
func firstShare(p *Policy) (pairDecision, int, bool) {
	for i, e := range p.Log {
		d, ok := parsePair(e.Msg)
		if !ok || !d.share {
			continue
		}
		d.t = e.T
		k := p.Index(d.newJob)
		if k >= 0 && p.Out.Jobs[k].StartS != nil && *p.Out.Jobs[k].StartS == e.T {
			return d, i, true
		}
	}
	return pairDecision{}, -1, false
}
