package api

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/schedlab/schedlab/scenarios"
	"github.com/schedlab/schedlab/sim/scenario"
	"github.com/schedlab/schedlab/sim/schema"
)

// readBody reads the request body up to the size limit, within the body
// time limit: a client that sends its body slowly, or announces more
// than it sends, gets 408 rather than holding the request open.
func (h *Handler) readBody(r Request) ([]byte, *Error) {
	if r.Body == nil {
		return nil, nil
	}
	timed := r.SetReadDeadline != nil && r.SetReadDeadline(time.Now().Add(h.o.BodyTimeout)) == nil
	data, e := h.readLimited(r)
	if e == nil && timed {
		// No deadline once the body is in: the server's read in the
		// background, which notices a client leaving, must not time out.
		r.SetReadDeadline(time.Time{})
	}
	return data, e
}

func (h *Handler) readLimited(r Request) ([]byte, *Error) {
	limit := h.o.Limits.MaxBodyBytes
	if r.Length > limit {
		drain(r, limit)
		return nil, tooLarge(r.Length, limit)
	}
	data, err := io.ReadAll(io.LimitReader(r.Body, limit+1))
	if err != nil {
		return nil, h.bodyError(err)
	}
	if int64(len(data)) > limit {
		drain(r, limit)
		return nil, tooLarge(-1, limit)
	}
	return data, nil
}

// bodyError is a body that could not be read: too slow, or cut off.
func (h *Handler) bodyError(err error) *Error {
	if errors.Is(err, os.ErrDeadlineExceeded) {
		return &Error{Status: statusRequestTimeout, Msg: fmt.Sprintf("the request body did not arrive within %s, this server's limit for sending it", h.o.BodyTimeout)}
	}
	return &Error{Status: statusBadRequest, Msg: "the request body ended before its announced length (the connection broke or the Content-Length is wrong)"}
}

// drain reads and drops up to n more bytes of a refused body, for at
// most drainTime, so that a client still sending it gets to read the 413
// rather than a reset connection (workerd closes the connection when the
// handler answers before the body is read). A body larger still, or a
// client that announces more than it sends, may see the reset.
func drain(r Request, n int64) {
	if r.SetReadDeadline != nil {
		r.SetReadDeadline(time.Now().Add(drainTime))
	}
	io.Copy(io.Discard, io.LimitReader(r.Body, n))
}

// drainTime bounds drain: 8 MiB at 8 MB/s, and no more than a second
// for a client that announces 10^12 bytes and sends a few.
const drainTime = time.Second

func tooLarge(n, limit int64) *Error {
	size := "more than the limit"
	if n >= 0 {
		size = fmt.Sprintf("%d bytes", n)
	}
	return &Error{Status: statusRequestEntityTooLarge,
		Msg: fmt.Sprintf("the request body is %s; the limit is %d bytes; describe jobs with a generator rather than listing them", size, limit)}
}

// decode reads a JSON object into v, refusing unknown fields and keys
// given twice, and naming the field of a type error.
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
		if k, ok := topKeyTwice(body); ok {
			return &Error{Status: statusBadRequest, Field: k, Msg: "is given twice; give each field once"}
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
	case errors.As(err, &se) && strings.HasSuffix(se.Error(), "exceeded max depth"):
		return &Error{Status: statusBadRequest, Msg: "the body nests lists and objects more than 10,000 deep"}
	case errors.As(err, &se):
		line, col := lineCol(body, se.Offset-1)
		return &Error{Status: statusBadRequest, Msg: fmt.Sprintf("the body is not valid JSON: line %d, column %d: %s", line, col, se.Error())}
	case strings.HasPrefix(err.Error(), "json: unknown field "):
		f := strings.Trim(strings.TrimPrefix(err.Error(), "json: unknown field "), `"`)
		return &Error{Status: statusBadRequest, Field: cut(f), Msg: "unknown field; a request has scenario, seed, policy, quick and (for /v1/sweep-point) x"}
	case errors.Is(err, io.ErrUnexpectedEOF):
		return &Error{Status: statusBadRequest, Msg: "the body ends in the middle of its JSON object"}
	}
	return &Error{Status: statusBadRequest, Msg: "the body is not a valid request"}
}

// topKeyTwice finds a key the request object gives twice (the scenario
// document inside is checked by its parser).
func topKeyTwice(body []byte) (string, bool) {
	dec := json.NewDecoder(bytes.NewReader(body))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return "", false
	}
	seen := map[string]bool{}
	for dec.More() {
		t, err := dec.Token()
		k, ok := t.(string)
		if err != nil || !ok {
			return "", false
		}
		if seen[k] {
			return cut(k), true
		}
		seen[k] = true
		var skip json.RawMessage
		if dec.Decode(&skip) != nil {
			return "", false
		}
	}
	return "", false
}

// cut shortens a name from the request to 80 characters for a message.
func cut(s string) string {
	n := 0
	for i := range s {
		if n == 80 {
			return s[:i] + "…"
		}
		n++
	}
	return s
}

// lineCol is the line and column of byte offset off.
func lineCol(data []byte, off int64) (line, col int) {
	line, col = 1, 1
	for i := int64(0); i < off && i < int64(len(data)); i++ {
		if data[i] == '\n' {
			line, col = line+1, 1
		} else {
			col++
		}
	}
	return line, col
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
			return nil, &Error{Status: statusBadRequest, Field: "scenario", Msg: fmt.Sprintf("no built-in scenario named %s (GET /v1/scenarios lists them)", quote(name))}
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
