package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/schedlab/schedlab/sim/policy/script"
	"github.com/schedlab/schedlab/sim/scenario"
)

// policyFiles is the repeatable --policy-file flag: Starlark scripts to
// run as policies of the script family beside the scenario's own.
type policyFiles []string

func (p *policyFiles) String() string { return strings.Join(*p, ",") }

func (p *policyFiles) Set(v string) error {
	*p = append(*p, v)
	return nil
}

// withPolicyFiles returns the scenario document with one script policy
// appended per file, labelled with the file's name; oracle lets the
// scripts read what a job has left to run.
func withPolicyFiles(doc []byte, files []string, oracle bool) ([]byte, error) {
	if len(files) == 0 {
		return doc, nil
	}
	var top map[string]json.RawMessage
	if err := json.Unmarshal(doc, &top); err != nil {
		return nil, err
	}
	var specs []json.RawMessage
	if raw, ok := top["policies"]; ok {
		if err := json.Unmarshal(raw, &specs); err != nil {
			return nil, fmt.Errorf("the scenario's policies are not a list: %v", err)
		}
	}
	for _, f := range files {
		src, err := readPolicyFile(f)
		if err != nil {
			return nil, fmt.Errorf("--policy-file: %w", err)
		}
		spec, err := json.Marshal(map[string]any{
			"name": "script", "label": filepath.Base(f),
			"params": script.Params{Source: string(src), Oracle: oracle},
		})
		if err != nil {
			return nil, err
		}
		specs = append(specs, spec)
	}
	raw, err := json.Marshal(specs)
	if err != nil {
		return nil, err
	}
	top["policies"] = raw
	return json.Marshal(top)
}

// readPolicyFile reads a script through the same checks as a scenario
// file (a regular file, not a device or a pipe) and the script's size
// limit.
func readPolicyFile(name string) ([]byte, error) {
	info, err := os.Stat(name)
	if err != nil {
		return nil, fmt.Errorf("cannot read %s: %w", name, errors.Unwrap(err))
	}
	if why := notAFile(info.Mode()); why != "" {
		return nil, fmt.Errorf("%s %s, not a script file", name, why)
	}
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, script.MaxSourceBytes+1))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if len(data) > script.MaxSourceBytes {
		return nil, fmt.Errorf("%s: longer than a script may be (%d bytes)", name, script.MaxSourceBytes)
	}
	return data, nil
}

// withPolicyFlags applies --policies (which replaces the scenario's
// policies) and then --policy-file (which adds to them) to a scenario
// document and parses the result.
func withPolicyFlags(doc []byte, policies string, files []string, oracle bool) (*scenario.Scenario, error) {
	if policies != "" {
		names, err := parsePolicyList(policies)
		if err != nil {
			return nil, err
		}
		if doc, err = withPolicies(doc, names); err != nil {
			return nil, err
		}
	}
	doc, err := withPolicyFiles(doc, files, oracle)
	if err != nil {
		return nil, err
	}
	return scenario.Parse(doc)
}
