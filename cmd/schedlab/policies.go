package main

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/schedlab/schedlab/sim/policy"
)

// parsePolicyList reads --policies: registered policy names separated by
// commas, each at most once. An unknown name is refused with the list of
// registered ones, before any scenario is read.
func parsePolicyList(arg string) ([]string, error) {
	var names []string
	for n := range strings.SplitSeq(arg, ",") {
		n = strings.TrimSpace(n)
		if n == "" {
			continue
		}
		if _, ok := policy.Lookup(n); !ok {
			return nil, fmt.Errorf("--policies: unknown policy %q; registered policies: %s", n, strings.Join(policy.Names(), ", "))
		}
		if slices.Contains(names, n) {
			return nil, fmt.Errorf("--policies: %s is listed twice", n)
		}
		names = append(names, n)
	}
	if len(names) == 0 {
		return nil, fmt.Errorf("--policies: give at least one policy name, e.g. --policies fifo,sjf; registered policies: %s", strings.Join(policy.Names(), ", "))
	}
	return names, nil
}

// withPolicies returns the scenario document with its policies replaced by
// the named ones at their default parameters. A paper scenario's reference
// numbers and checks are about its own policies, so they are dropped, and
// so are its sweep's ratios of two of them (the sweep then plots one curve
// per policy); everything else is kept.
func withPolicies(doc []byte, names []string) ([]byte, error) {
	var top map[string]json.RawMessage
	if err := json.Unmarshal(doc, &top); err != nil {
		return nil, err
	}
	specs := make([]map[string]string, len(names))
	for i, n := range names {
		specs[i] = map[string]string{"name": n}
	}
	ps, err := json.Marshal(specs)
	if err != nil {
		return nil, err
	}
	top["policies"] = ps
	delete(top, "reference")
	delete(top, "checks")
	if err := adaptSweep(top); err != nil {
		return nil, err
	}
	if q, ok := top["quick"]; ok {
		var quick map[string]json.RawMessage
		if err := json.Unmarshal(q, &quick); err == nil {
			delete(quick, "checks")
			if err := dropPolicyAssigns(quick); err != nil {
				return nil, err
			}
			if top["quick"], err = json.Marshal(quick); err != nil {
				return nil, err
			}
		}
	}
	return json.Marshal(top)
}

// dropPolicyAssigns removes the quick version's changes to the scenario's
// own policies, which are no longer there.
func dropPolicyAssigns(quick map[string]json.RawMessage) error {
	raw, ok := quick["set"]
	if !ok {
		return nil
	}
	var set []json.RawMessage
	if err := json.Unmarshal(raw, &set); err != nil {
		return nil // the validator reports it
	}
	var keep []json.RawMessage
	for _, a := range set {
		var as struct {
			Param string `json:"param"`
		}
		if json.Unmarshal(a, &as) == nil && (as.Param == "policies" || strings.HasPrefix(as.Param, "policies[") || strings.HasPrefix(as.Param, "policies.")) {
			continue
		}
		keep = append(keep, a)
	}
	if keep == nil {
		delete(quick, "set")
		return nil
	}
	out, err := json.Marshal(keep)
	quick["set"] = out
	return err
}

// adaptSweep drops the sweep's ratios, which name the scenario's own
// policies, and refuses a sweep over those policies' parameters, which
// has no meaning for others.
func adaptSweep(top map[string]json.RawMessage) error {
	raw, ok := top["sweep"]
	if !ok {
		return nil
	}
	var sweep map[string]json.RawMessage
	if json.Unmarshal(raw, &sweep) != nil {
		return nil // the validator reports it
	}
	for _, key := range []string{"params", "scale"} {
		var paths []string
		_ = json.Unmarshal(sweep[key], &paths)
		for i, p := range paths {
			if p == "policies" || strings.HasPrefix(p, "policies[") || strings.HasPrefix(p, "policies.") {
				return fmt.Errorf("--policies: the scenario's sweep varies its own policies (sweep.%s[%d] is %s), so it cannot run with other policies; copy the scenario and edit its policies instead", key, i, p)
			}
		}
	}
	delete(sweep, "ratios")
	out, err := json.Marshal(sweep)
	top["sweep"] = out
	return err
}
