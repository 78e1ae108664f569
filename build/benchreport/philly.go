package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
)

// phillyLimitS is the CPU each policy may take on the whole Philly log.
const phillyLimitS = 60

// phillyMaxWaiting is the bound a policy that does not finish is tried
// again with, if it has the parameter max_waiting (an approximation, off
// by default): the log's 64 GPUs.
const phillyMaxWaiting = 64

// phillyLog imports the whole Philly log twice (the default cluster, and
// 64 V100 for the Gavel family, whose default prices name no RTX 2080 Ti)
// and runs every registered policy on it, one at a time, each stopped
// after phillyLimitS seconds of CPU.
func (m *measurer) phillyLog(ctx context.Context, log string) []row {
	target := fmt.Sprintf("< %d s", phillyLimitS)
	plain, c64 := filepath.Join(m.tmp, "philly.json"), filepath.Join(m.tmp, "philly-constant-64.json")
	progress("importing the Philly log")
	for _, imp := range [][]string{{"import", "philly", log, "--out", plain}, {"import", "philly", log, "--cluster", "constant-64", "--out", c64}} {
		if _, err := m.runNative(ctx, imp...); err != nil {
			return []row{failed("importing the log", target, err)}
		}
	}
	names, err := m.policyNames(ctx)
	if err != nil {
		return []row{failed("listing the policies", target, err)}
	}
	var rows []row
	for _, p := range names {
		file := plain
		if strings.HasPrefix(p, "gavel-") {
			file = c64
		}
		progress("the Philly log under " + p)
		u, stopped, err := limited(ctx, phillyLimitS, m.native, "run", file, "--policies", p, "--workers", "1", "--format", "json")
		r := row{Measure: "`" + p + "`", Target: target}
		switch {
		case stopped:
			r.Value, r.Verdict = fmt.Sprintf("not done in %d s", phillyLimitS), "not met"
			if v, done, ok := m.phillyBounded(ctx, file, p); ok {
				r.Value += "; " + v
				if done {
					r.Verdict = "met with the approximation only"
				}
			}
		case err != nil:
			r.Value = "cannot run it: " + err.Error()
		default:
			r.Value, r.Verdict = seconds(u.CPU), verdict(u.CPU, phillyLimitS, true)
		}
		if file == c64 && err == nil {
			r.Value += " (64 V100, `--cluster constant-64`)"
		}
		rows = append(rows, r)
	}
	return rows
}

var policyLine = regexp.MustCompile(`(?m)^([a-z0-9][a-z0-9-]*) \(`)

// policyNames lists the registered policies as `schedlab policies` does.
func (m *measurer) policyNames(ctx context.Context) ([]string, error) {
	out, err := exec.CommandContext(ctx, m.native, "policies").Output()
	if err != nil {
		return nil, err
	}
	var names []string
	for _, mm := range policyLine.FindAllStringSubmatch(string(out), -1) {
		names = append(names, mm[1])
	}
	if len(names) == 0 {
		return nil, fmt.Errorf("schedlab policies listed none")
	}
	return names, nil
}

// phillyBounded runs policy p on the log again with max_waiting: it
// reports the CPU it took and whether it finished within the limit, and
// ok false if p has no such parameter.
func (m *measurer) phillyBounded(ctx context.Context, file, p string) (v string, done, ok bool) {
	bounded := filepath.Join(m.tmp, "philly-"+p+"-bounded.json")
	params := fmt.Sprintf(`{"max_waiting": %d}`, phillyMaxWaiting)
	if err := withPolicy(file, bounded, p, params); err != nil {
		return "", false, false
	}
	defer os.Remove(bounded)
	if _, err := m.runNative(ctx, "validate", bounded); err != nil {
		return "", false, false // no parameter max_waiting
	}
	progress("the Philly log under " + p + " with max_waiting")
	u, stopped, err := limited(ctx, phillyLimitS, m.native, "run", bounded, "--workers", "1", "--format", "json")
	with := fmt.Sprintf(" with `max_waiting: %d`", phillyMaxWaiting)
	switch {
	case stopped:
		return fmt.Sprintf("not done in %d s", phillyLimitS) + with, false, true
	case err != nil:
		return "cannot run it" + with + ": " + err.Error(), false, true
	}
	return seconds(u.CPU) + with, true, true
}

// withPolicy writes scenario file in as out with its policies replaced by
// policy p with params (a JSON object).
func withPolicy(in, out, p, params string) error {
	b, err := os.ReadFile(in)
	if err != nil {
		return err
	}
	var sc map[string]json.RawMessage
	if err := json.Unmarshal(b, &sc); err != nil {
		return err
	}
	pol, err := json.Marshal([]map[string]json.RawMessage{{"name": json.RawMessage(fmt.Sprintf("%q", p)), "params": json.RawMessage(params)}})
	if err != nil {
		return err
	}
	sc["policies"] = pol
	if b, err = json.Marshal(sc); err != nil {
		return err
	}
	return os.WriteFile(out, b, 0o644)
}
