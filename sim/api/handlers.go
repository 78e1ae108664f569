package api

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/schedlab/schedlab/scenarios"
	"github.com/schedlab/schedlab/sim/experiment"
	"github.com/schedlab/schedlab/sim/policy"
	"github.com/schedlab/schedlab/sim/results"
	"github.com/schedlab/schedlab/sim/scenario"
	"github.com/schedlab/schedlab/sim/schema"
)

// Health is the answer of GET /v1/health.
type Health struct {
	Status string `json:"status"`
	API    string `json:"api"`
	Limits Limits `json:"limits"`
	Load   Load   `json:"load"`
}

func (l Limits) MarshalJSON() ([]byte, error) {
	type named struct {
		MaxBodyBytes int64   `json:"max_body_bytes"`
		MaxGPUs      int64   `json:"max_gpus"`
		MaxJobs      int64   `json:"max_jobs"`
		MaxRuns      int64   `json:"max_runs"`
		MaxSimTimeS  float64 `json:"max_sim_time_s"`
		MaxAnswer    int64   `json:"max_answer_bytes"`
	}
	return json.Marshal(named{l.MaxBodyBytes, l.MaxGPUs, l.MaxJobs, l.MaxRuns, l.MaxSimTimeS, l.MaxAnswerBytes})
}

func (h *Handler) health() (any, *Error) {
	return Health{Status: "ok", API: Version, Limits: h.o.Limits, Load: h.admit.load()}, nil
}

// ScenarioInfo is one built-in scenario in GET /v1/scenarios.
type ScenarioInfo struct {
	Name    string `json:"name"`
	Title   string `json:"title"`
	Default bool   `json:"default,omitempty"`
}

// scenarios lists the built-in scenarios from a light reading of their
// title (a full parse of every one would cost each request on Workers,
// where every request starts a fresh instance).
func (h *Handler) scenarios() (any, *Error) {
	out := []ScenarioInfo{}
	for _, n := range scenarios.Names() {
		data, _ := scenarios.Read(n)
		var head struct {
			Title string `json:"title"`
		}
		json.Unmarshal(data, &head)
		out = append(out, ScenarioInfo{Name: n, Title: head.Title, Default: n == scenarios.Default})
	}
	return out, nil
}

// PolicyInfo is one registered policy in GET /v1/policies.
type PolicyInfo struct {
	Name   string         `json:"name"`
	Title  string         `json:"title"`
	Paper  string         `json:"paper"`
	Doc    string         `json:"doc"`
	Needs  string         `json:"needs,omitempty"`
	Params []schema.Field `json:"params"`
}

func (h *Handler) policies() (any, *Error) {
	out := []PolicyInfo{}
	for _, n := range policy.Names() {
		f, _ := policy.Lookup(n)
		params := schema.Describe(f.NewParams())
		if params == nil {
			params = []schema.Field{}
		}
		out = append(out, PolicyInfo{Name: n, Title: f.Title, Paper: f.Paper, Doc: f.Doc, Needs: f.Needs(), Params: params})
	}
	return out, nil
}

// ValidateRequest is the body of POST /v1/validate.
type ValidateRequest struct {
	Scenario json.RawMessage `json:"scenario"`
}

// ValidateResponse says whether a scenario is valid, with every problem
// at its JSON path, as `schedlab validate` prints them.
type ValidateResponse struct {
	Valid    bool             `json:"valid"`
	Name     string           `json:"name,omitempty"`
	Policies int              `json:"policies,omitempty"`
	Problems []schema.Problem `json:"problems"`
	// Lines are the problems as `schedlab validate` prints them.
	Lines []string `json:"lines"`
}

func (h *Handler) validate(_ context.Context, body []byte) (any, *Error) {
	var req ValidateRequest
	if e := decode(body, &req); e != nil {
		return nil, e
	}
	doc, e := scenarioDoc(req.Scenario)
	if e != nil {
		return nil, e
	}
	sc, e := parse(doc)
	if e != nil {
		if e.Problems == nil {
			e.Problems = []schema.Problem{{Msg: e.Msg}}
		}
		out := ValidateResponse{Problems: e.Problems, Lines: []string{}}
		for _, p := range e.Problems {
			out.Lines = append(out.Lines, p.String())
		}
		return out, nil
	}
	return ValidateResponse{Valid: true, Name: sc.Name, Policies: len(sc.Policies), Problems: []schema.Problem{}, Lines: []string{}}, nil
}

// RunRequest is the body of POST /v1/run.
type RunRequest struct {
	Scenario json.RawMessage `json:"scenario"`
	Seed     uint64          `json:"seed,omitempty"`   // a plain scenario's seed; 0: its first
	Policy   *int            `json:"policy,omitempty"` // only this policy (its index); plain scenarios
	Quick    bool            `json:"quick,omitempty"`  // a study's quick version
}

// run answers exactly what `schedlab run --format json` prints.
func (h *Handler) run(ctx context.Context, body []byte) (any, *Error) {
	var req RunRequest
	if e := decode(body, &req); e != nil {
		return nil, e
	}
	sc, e := loadScenario(req.Scenario)
	if e != nil {
		return nil, e
	}
	study := IsStudy(sc)
	if req.Policy != nil {
		if study {
			return nil, &Error{Status: statusBadRequest, Field: "policy", Msg: "only a plain scenario runs one policy; a study compares its policies (use /v1/sweep-point for a part of it)"}
		}
		one, err := sc.WithPolicy(*req.Policy)
		if err != nil {
			return nil, &Error{Status: statusBadRequest, Field: "policy", Msg: err.Error()}
		}
		sc = one
	}
	if study && req.Seed != 0 {
		return nil, &Error{Status: statusBadRequest, Field: "seed", Msg: "a study runs its own seeds; use /v1/sweep-point for one seed"}
	}
	runs := int64(len(sc.Policies))
	if study {
		form, err := StudyForm(sc, req.Quick)
		if err != nil {
			return nil, &Error{Status: statusBadRequest, Field: "quick", Msg: err.Error()}
		}
		seeds, xs := PlanPoints(form)
		runs *= int64(len(seeds) * len(xs))
	}
	if e := h.checkLimits(sc, runs); e != nil {
		return nil, e
	}
	if !study {
		if e := h.checkAnswer(sc.Size().Jobs, runs); e != nil {
			return nil, e
		}
	}
	oc, err := Execute(ctx, sc, RunOptions{Seed: req.Seed, Quick: req.Quick, Workers: h.o.Workers})
	if err != nil {
		return nil, h.runError(ctx, err)
	}
	// Runs that stopped with an error (a saturated load, a job that never
	// fits) are in the output with their errors, as the CLI prints them.
	return oc.Output(), nil
}

// runError is a run that could not start or was stopped.
func (h *Handler) runError(ctx context.Context, err error) *Error {
	switch ctx.Err() {
	case context.DeadlineExceeded:
		return &Error{Status: statusServiceUnavailable, Msg: fmt.Sprintf(
			"the request reached this server's time limit of %s and was stopped; ask for less (fewer jobs, policies, seeds or sweep points; /v1/sweep-point runs one point), or run it with schedlab run", h.o.Timeout)}
	case context.Canceled:
		return &Error{Status: statusServiceUnavailable, Msg: "the request was cancelled (the client closed the connection)"}
	}
	return &Error{Status: statusUnprocessableEntity, Field: "scenario", Msg: err.Error()}
}

// PointRequest is the body of POST /v1/sweep-point: one sweep value
// (absent for a study without a sweep) and one seed of a study, in its
// full or quick version.
type PointRequest struct {
	Scenario json.RawMessage `json:"scenario"`
	X        *float64        `json:"x,omitempty"`
	Seed     uint64          `json:"seed"`
	Quick    bool            `json:"quick,omitempty"`
	// Policy, if set, runs only this policy (its index), when the
	// study's metrics never compare one policy's runs with another's
	// (experiment.SplitsByPolicy).
	Policy *int `json:"policy,omitempty"`
}

// PointResponse is one point and seed of a study: the values its checks
// read (experiment.AssembleStudy puts them together) and its runs'
// summaries as the study's output lists them.
type PointResponse struct {
	Values *results.StudyValues        `json:"values"`
	Runs   []experiment.StudyRunOutput `json:"runs"`
}

func (h *Handler) sweepPoint(ctx context.Context, body []byte) (any, *Error) {
	var req PointRequest
	if e := decode(body, &req); e != nil {
		return nil, e
	}
	sc, e := loadScenario(req.Scenario)
	if e != nil {
		return nil, e
	}
	if !IsStudy(sc) {
		return nil, &Error{Status: statusBadRequest, Field: "scenario", Msg: "is not a study (no sweep, paper numbers or checks); use /v1/run"}
	}
	form, err := StudyForm(sc, req.Quick)
	if err != nil {
		return nil, &Error{Status: statusBadRequest, Field: "quick", Msg: err.Error()}
	}
	_, xs := PlanPoints(form)
	x, e := pickX(xs, req.X)
	if e != nil {
		return nil, e
	}
	if req.Seed == 0 {
		return nil, &Error{Status: statusBadRequest, Field: "seed", Msg: "required: the seed to run (a positive whole number)"}
	}
	policy, runs := -1, int64(len(form.Policies))
	if req.Policy != nil {
		if e := checkPolicy(form, *req.Policy); e != nil {
			return nil, e
		}
		policy, runs = *req.Policy, 1
	}
	if e := h.checkLimits(form, runs); e != nil {
		return nil, e
	}
	vals, out, err := experiment.RunSplitPoint(ctx, form, x, req.Seed, policy)
	if err != nil {
		return nil, h.runError(ctx, err)
	}
	return PointResponse{Values: vals, Runs: out}, nil
}

// checkPolicy checks a sweep point's policy index.
func checkPolicy(form *scenario.Scenario, i int) *Error {
	if i < 0 || i >= len(form.Policies) {
		return &Error{Status: statusBadRequest, Field: "policy", Msg: fmt.Sprintf("%d is not a policy index; the scenario has %d policies", i, len(form.Policies))}
	}
	if !experiment.SplitsByPolicy(form) {
		return &Error{Status: statusBadRequest, Field: "policy", Msg: "this study's metrics compare its policies' runs, so a point runs every policy; leave policy out"}
	}
	return nil
}

// pickX checks the requested sweep value against the plan's.
func pickX(xs []float64, x *float64) (float64, *Error) {
	swept := len(xs) > 0 && !isNaN(xs[0])
	switch {
	case !swept && x != nil:
		return 0, &Error{Status: statusBadRequest, Field: "x", Msg: "the study has no sweep; leave x out"}
	case !swept:
		return xs[0], nil
	case x == nil:
		return 0, &Error{Status: statusBadRequest, Field: "x", Msg: "required: one of the sweep values " + list(xs)}
	}
	for _, v := range xs {
		if v == *x {
			return v, nil
		}
	}
	return 0, &Error{Status: statusBadRequest, Field: "x", Msg: fmt.Sprintf("%g is not one of the sweep values %s", *x, list(xs))}
}

func list(xs []float64) string {
	s := "["
	for i, x := range xs {
		if i > 0 {
			s += ", "
		}
		s += strconv.FormatFloat(x, 'g', -1, 64)
	}
	return s + "]"
}
