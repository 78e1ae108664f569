// Package protocol is the message protocol between the page and the engine
// Web Worker. Messages are JavaScript objects whose "type" says what they
// are; the JSON payloads below travel in a "json" string field, and binary
// figures travel beside them as Uint8Arrays so that no base64 is needed.
//
// Page to worker:
//
//	{type: "run", id, json: RunRequest}    run a scenario
//	{type: "cancel", id}                   stop run id
//	{type: "list"}                         ask for the built-in scenarios
//
// Worker to page:
//
//	{type: "ready", json: Ready}           the engine is loaded
//	{type: "progress", id, json: Progress} at most a few times a second
//	{type: "result", id, json: Result, png: {name: Uint8Array}}
//	{type: "error", id, json: Error}       invalid scenario, failed or cancelled run
//
// Errors about a scenario carry each problem's JSON path, so the page can
// show it next to the field that caused it.
package protocol

import (
	"github.com/schedlab/schedlab/sim/experiment"
	"github.com/schedlab/schedlab/sim/schema"
)

// ScenarioInfo describes a built-in scenario for the gallery.
type ScenarioInfo struct {
	Name        string   `json:"name"`
	Title       string   `json:"title"`
	Description string   `json:"description"`
	Tags        []string `json:"tags,omitempty"`
}

// Ready is sent once the engine has started.
type Ready struct {
	Scenarios []ScenarioInfo `json:"scenarios"`
	Default   string         `json:"default"`
	Policies  []string       `json:"policies"`
}

// RunRequest asks for a run. Exactly one of Name (a built-in scenario) and
// Document (a scenario JSON document) is set. Seed 0 means the scenario's
// first seed. Figures lists the figures wanted as PNG ("" or nil: all).
type RunRequest struct {
	Name     string   `json:"name,omitempty"`
	Document string   `json:"document,omitempty"`
	Seed     uint64   `json:"seed,omitempty"`
	Figures  []string `json:"figures,omitempty"`
	Width    float64  `json:"width,omitempty"`  // inches, 0 for the default
	Height   float64  `json:"height,omitempty"` // inches, 0 for the default
}

// Progress reports a run's progress.
type Progress struct {
	Policy   string  `json:"policy"`
	Run      int     `json:"run"`
	Runs     int     `json:"runs"`
	NowS     float64 `json:"now_s"`
	Finished int     `json:"finished"`
	Total    int     `json:"total"`
}

// Figure names a PNG sent beside a result.
type Figure struct {
	Name  string `json:"name"`
	Title string `json:"title"`
}

// Result is a finished run of every policy of a scenario on one seed.
type Result struct {
	Output  experiment.Output `json:"output"`
	Figures []Figure          `json:"figures"`
	// ElapsedMS is the worker's wall time for simulating and drawing.
	ElapsedMS float64 `json:"elapsed_ms"`
}

// Error is a failure; Problems is set when the scenario was invalid.
type Error struct {
	Message  string           `json:"message"`
	Problems []schema.Problem `json:"problems,omitempty"`
}
