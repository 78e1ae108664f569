package protocol

import "encoding/json"

// Checking a policy: "Check my policy" on a script policy's card runs the
// conformance battery (sim/experiment/conformance) on it in an engine
// worker, with progress messages as the cases run.
//
//	{type: "conform", id, json: ConformRequest}   page to worker
//	{type: "progress", id, json: Progress}        Finished of Total cases
//	{type: "conformed", id, json: Conformed}      worker to page
//
// A "cancel" with the same id stops it.
const (
	TypeConform   = "conform"
	TypeConformed = "conformed"
)

// ConformRequest names a registered policy and its parameters (a JSON
// object; none means its defaults).
type ConformRequest struct {
	Policy string          `json:"policy"`
	Params json.RawMessage `json:"params,omitempty"`
}

// Conformed is what the battery found: how many cases there were, how
// many the policy ran (the others it declares it cannot run), and each
// failed case.
type Conformed struct {
	Cases    int              `json:"cases"`
	Ran      int              `json:"ran"`
	Problems []ConformProblem `json:"problems,omitempty"`
}

// ConformProblem is one failed case: the made-up scenario in words, its
// seed, what went wrong, and the scenario itself, to open in the editor.
type ConformProblem struct {
	Case     string `json:"case"`
	Seed     uint64 `json:"seed"`
	Msg      string `json:"msg"`
	Document string `json:"document"`
}
