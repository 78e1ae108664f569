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

	"github.com/schedlab/schedlab/sim/results"
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
// after phillyLimitS seconds of CPU. A policy that refuses the log as
// imported runs on the smallest adaptation of the log it needs (see
// adaptations), which its row states.
func (m *measurer) phillyLog(ctx context.Context, log string) []row {
	target := fmt.Sprintf("< %d s", phillyLimitS)
	progress("importing the Philly log")
	plain, err := m.phillyImport(ctx, log)
	if err != nil {
		return []row{failed("importing the log", target, err)}
	}
	c64, err := m.phillyImport(ctx, log, "--cluster", "constant-64")
	if err != nil {
		return []row{failed("importing the log", target, err)}
	}
	names, err := m.policyNames(ctx)
	if err != nil {
		return []row{failed("listing the policies", target, err)}
	}
	var rows []row
	for _, p := range names {
		var base []string
		file := plain
		if strings.HasPrefix(p, "gavel-") {
			file, base = c64, []string{"--cluster", "constant-64"}
		}
		r := row{Measure: "`" + p + "`", Target: target}
		progress("the Philly log under " + p)
		u, stopped, err := limited(ctx, phillyLimitS, m.native, "run", file, "--policies", p, "--workers", "1", "--format", "json")
		note := ""
		if err != nil {
			// Refused (or failed): run it on the adaptation its refusal
			// calls for, if there is one.
			if adapted, n, aerr := m.phillyAdapted(ctx, log, file, p, base); aerr == nil {
				file, note = adapted, n
				progress("the adapted Philly log under " + p)
				u, stopped, err = limited(ctx, phillyLimitS, m.native, "run", file, "--policies", p, "--workers", "1", "--format", "json")
			}
		}
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
		switch {
		case note != "" && len(base) > 0:
			r.Value += " (64 V100, `--cluster constant-64`; " + note + ")"
		case note != "":
			r.Value += " (" + note + ")"
		case file == c64 && err == nil:
			r.Value += " (64 V100, `--cluster constant-64`)"
		}
		rows = append(rows, r)
	}
	return rows
}

// An adaptation is a change of the imported log that a policy which
// refuses the log as imported needs to run on it, made with schedlab
// import's own options: the smallest that answers the refusal, of the
// log, not of the policy.
type adaptation struct {
	refusal *regexp.Regexp // the refusal it answers, in schedlab validate's words
	// args are the import options, from the refusal's submatches.
	args func(sub []string) []string
	// note says what was changed; %s is the number of jobs kept.
	note func(sub []string) string
}

// adaptations are tried in order; a policy may need more than one.
var adaptations = []adaptation{
	{refusal: regexp.MustCompile(`works only with perf model memshare`),
		args: func([]string) []string { return []string{"--cluster", "ojpp-64"} },
		note: func([]string) string {
			return "the log imported with `--cluster ojpp-64`: each job a type drawn (seed 1) from the OJPP paper's Mixed queue, which the memshare perf model needs, its logged duration kept; 16 × 4 GPUs of 11 GB"
		}},
	{refusal: regexp.MustCompile(`works only with perf model ring_allreduce|needs every job at time 0`),
		args: func([]string) []string { return []string{"--cluster", "sjf-bco-64", "--at-zero"} },
		note: func([]string) string {
			return "the log imported with `--cluster sjf-bco-64 --at-zero`: every job submitted at time 0, the offline batch the policy plans, with iterations for an iteration time drawn (seed 1) from the SJF-BCO paper's [0.01, 0.05] s, which the ring_allreduce perf model needs; 16 × 4 V100"
		}},
	{refusal: regexp.MustCompile(`schedules jobs of at most (\d+) GPU`),
		args: func(sub []string) []string { return []string{"--max-gpus", sub[1]} },
		note: func(sub []string) string {
			return "the log's %s jobs of at most " + sub[1] + " GPU(s), `--max-gpus " + sub[1] + "`"
		}},
}

// phillyAdapted returns, for policy p which failed on file, the log
// imported again from log with base and the adaptations p's refusals call
// for, and what they changed; an error when no adaptation answers.
func (m *measurer) phillyAdapted(ctx context.Context, log, file, p string, base []string) (string, string, error) {
	args, used := base, map[int]bool{}
	var notes []string
	for {
		refusal, err := m.refusal(ctx, file, p)
		if err != nil {
			return "", "", err
		}
		if refusal == "" {
			if len(notes) == 0 {
				return "", "", fmt.Errorf("it failed, but schedlab validate accepts the log for it")
			}
			return file, strings.Join(notes, "; "), nil
		}
		k, sub := adaptFor(refusal, used)
		if k < 0 {
			return "", "", fmt.Errorf("%s", oneLine(refusal, 160))
		}
		used[k] = true
		args = append(args, adaptations[k].args(sub)...)
		progress(fmt.Sprintf("the Philly log for %s, imported with %s", p, strings.Join(args, " ")))
		if file, err = m.phillyImport(ctx, log, args...); err != nil {
			return "", "", err
		}
		n, err := jobCount(file)
		if err != nil {
			return "", "", err
		}
		note := adaptations[k].note(sub)
		if strings.Contains(note, "%s") {
			note = fmt.Sprintf(note, results.Thousands(n))
		}
		notes = append(notes, note)
	}
}

// adaptFor returns the first adaptation not used yet that answers
// refusal, with the refusal's submatches, or -1.
func adaptFor(refusal string, used map[int]bool) (int, []string) {
	for i, a := range adaptations {
		if sub := a.refusal.FindStringSubmatch(refusal); sub != nil && !used[i] {
			return i, sub
		}
	}
	return -1, nil
}

// phillyImport imports the log with args into a file of the temporary
// folder named by them (an import is made once, whichever policies use it).
func (m *measurer) phillyImport(ctx context.Context, log string, args ...string) (string, error) {
	name := "philly"
	for _, a := range args {
		name += "-" + strings.Trim(a, "-")
	}
	file := filepath.Join(m.tmp, name+".json")
	if _, err := os.Stat(file); err == nil {
		return file, nil
	}
	_, err := m.runNative(ctx, append([]string{"import", "philly", log, "--out", file}, args...)...)
	return file, err
}

// refusal validates file with only policy p and returns every problem
// schedlab validate names, or "" when it accepts it.
func (m *measurer) refusal(ctx context.Context, file, p string) (string, error) {
	one := filepath.Join(m.tmp, "philly-validate.json")
	if err := withPolicy(file, one, p, "{}"); err != nil {
		return "", err
	}
	defer os.Remove(one)
	out, err := exec.CommandContext(ctx, m.native, "validate", one).CombinedOutput()
	if err == nil {
		return "", nil
	}
	if _, ok := err.(*exec.ExitError); !ok {
		return "", err
	}
	return string(out), nil
}

// jobCount counts the jobs of an imported scenario.
func jobCount(file string) (int, error) {
	var sc struct {
		Workload struct {
			Jobs []json.RawMessage `json:"jobs"`
		} `json:"workload"`
	}
	b, err := os.ReadFile(file)
	if err != nil {
		return 0, err
	}
	if err := json.Unmarshal(b, &sc); err != nil {
		return 0, fmt.Errorf("%s: %v", file, err)
	}
	return len(sc.Workload.Jobs), nil
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
