package api

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/schedlab/schedlab/scenarios"
	"github.com/schedlab/schedlab/sim/scenario"
	"github.com/schedlab/schedlab/sim/schema"
)

// readBody reads the request body up to the size limit.
func (h *Handler) readBody(r Request) ([]byte, *Error) {
	if r.Body == nil {
		return nil, nil
	}
	limit := h.o.Limits.MaxBodyBytes
	if r.Length > limit {
		drain(r.Body, limit)
		return nil, tooLarge(r.Length, limit)
	}
	data, err := io.ReadAll(io.LimitReader(r.Body, limit+1))
	if err != nil {
		return nil, &Error{Status: statusBadRequest, Msg: "reading the body: " + err.Error()}
	}
	if int64(len(data)) > limit {
		drain(r.Body, limit)
		return nil, tooLarge(-1, limit)
	}
	return data, nil
}

// drain reads and drops up to n more bytes of a refused body, so that a
// client still sending it gets to read the 413 rather than a reset
// connection (workerd closes the connection when the handler answers
// before the body is read). A body larger still may see the reset.
func drain(body io.Reader, n int64) {
	io.Copy(io.Discard, io.LimitReader(body, n))
}

func tooLarge(n, limit int64) *Error {
	size := "more than the limit"
	if n >= 0 {
		size = fmt.Sprintf("%d bytes", n)
	}
	return &Error{Status: statusRequestEntityTooLarge,
		Msg: fmt.Sprintf("the request body is %s; the limit is %d bytes; describe jobs with a generator rather than listing them", size, limit)}
}

// decode reads a JSON object into v, refusing unknown fields and naming
// the field of a type error.
func decode(body []byte, v any) *Error {
	if len(bytes.TrimSpace(body)) == 0 {
		return &Error{Status: statusBadRequest, Msg: "the body is empty; send a JSON object such as {\"scenario\": \"fifo-vs-sjf\"}"}
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	err := dec.Decode(v)
	if err == nil {
		if _, err2 := dec.Token(); err2 != io.EOF {
			return &Error{Status: statusBadRequest, Msg: "the body has more after its JSON object; send exactly one object"}
		}
		return nil
	}
	var te *json.UnmarshalTypeError
	var se *json.SyntaxError
	switch {
	case errors.As(err, &te) && te.Field != "":
		return &Error{Status: statusBadRequest, Field: te.Field, Msg: fmt.Sprintf("must be %s, got a JSON %s", kindOf(te.Type.Kind().String()), te.Value)}
	case errors.As(err, &te):
		return &Error{Status: statusBadRequest, Msg: fmt.Sprintf("the body must be a JSON object, got a JSON %s", te.Value)}
	case errors.As(err, &se):
		return &Error{Status: statusBadRequest, Msg: fmt.Sprintf("the body is not valid JSON at byte %d: %v", se.Offset, err)}
	case strings.HasPrefix(err.Error(), "json: unknown field "):
		f := strings.Trim(strings.TrimPrefix(err.Error(), "json: unknown field "), `"`)
		return &Error{Status: statusBadRequest, Field: f, Msg: "unknown field"}
	case errors.Is(err, io.ErrUnexpectedEOF):
		return &Error{Status: statusBadRequest, Msg: "the body ends in the middle of its JSON object"}
	}
	return &Error{Status: statusBadRequest, Msg: "the body is not a valid request: " + err.Error()}
}

func kindOf(k string) string {
	switch k {
	case "uint64", "int", "int64":
		return "a non-negative whole number"
	case "float64":
		return "a number"
	case "bool":
		return "true or false"
	case "string":
		return "a string"
	}
	return "a " + k
}

// scenarioDoc turns the request's scenario field into a document: an
// object as it is, a string as the built-in scenario of that name.
func scenarioDoc(raw json.RawMessage) ([]byte, *Error) {
	raw = bytes.TrimSpace(raw)
	switch {
	case len(raw) == 0 || string(raw) == "null":
		return nil, &Error{Status: statusBadRequest, Field: "scenario", Msg: "required: a scenario object, or the name of a built-in scenario (GET /v1/scenarios lists them)"}
	case raw[0] == '"':
		var name string
		if err := json.Unmarshal(raw, &name); err != nil {
			return nil, &Error{Status: statusBadRequest, Field: "scenario", Msg: "not a valid JSON string"}
		}
		data, ok := scenarios.Read(name)
		if !ok {
			return nil, &Error{Status: statusBadRequest, Field: "scenario", Msg: fmt.Sprintf("no built-in scenario named %q (GET /v1/scenarios lists them)", name)}
		}
		return data, nil
	case raw[0] == '{':
		return raw, nil
	}
	return nil, &Error{Status: statusBadRequest, Field: "scenario", Msg: "must be a scenario object or the name of a built-in scenario"}
}

// parse parses and validates a scenario document; its problems come back
// with their JSON paths inside the scenario.
// loadScenario reads a request's scenario field (a built-in name or a
// document) and parses it.
func loadScenario(raw json.RawMessage) (*scenario.Scenario, *Error) {
	doc, e := scenarioDoc(raw)
	if e != nil {
		return nil, e
	}
	return parse(doc)
}

func parse(doc []byte) (*scenario.Scenario, *Error) {
	sc, err := scenario.Parse(doc)
	if err == nil {
		return sc, nil
	}
	var ps schema.Problems
	if errors.As(err, &ps) {
		return nil, &Error{Status: statusBadRequest, Field: "scenario", Msg: fmt.Sprintf("the scenario has %d problem(s)", len(ps)), Problems: ps}
	}
	return nil, &Error{Status: statusBadRequest, Field: "scenario", Msg: err.Error()}
}

// checkLimits refuses a scenario over the API's limits before anything
// runs, and bounds its simulated time; runs is how many runs the request
// makes.
func (h *Handler) checkLimits(sc *scenario.Scenario, runs int64) *Error {
	l := h.o.Limits
	sz := sc.Size()
	over := func(format string, a ...any) *Error {
		return &Error{Status: statusUnprocessableEntity, Field: "scenario", Msg: fmt.Sprintf(format, a...)}
	}
	switch {
	case sz.GPUs > l.MaxGPUs:
		return over("the cluster has %d GPUs, above this server's limit of %d", sz.GPUs, l.MaxGPUs)
	case sz.Jobs > l.MaxJobs:
		return over("a run has %d jobs, above this server's limit of %d jobs per run", sz.Jobs, l.MaxJobs)
	case runs > l.MaxRuns:
		return over("the request makes %d runs, above this server's limit of %d; ask for fewer seeds, sweep points or policies (POST /v1/sweep-point runs one point)", runs, l.MaxRuns)
	}
	// The engine's budget bounds simulated time; 0 means its default.
	budget := sc.Engine.Budgets.MaxTimeS
	if budget == 0 {
		budget = engineDefaultMaxTimeS
	}
	if budget > l.MaxSimTimeS {
		return over("a run may simulate up to %g s (engine.max_time_s, 0 meaning the engine's default of 10 years), above this server's limit of %g s; set engine.max_time_s to at most %g", budget, l.MaxSimTimeS, l.MaxSimTimeS)
	}
	return nil
}

// engineDefaultMaxTimeS is the engine's time budget when a scenario sets
// none (sim/engine's defaultMaxTimeS).
const engineDefaultMaxTimeS = 10 * 365 * 24 * 3600
