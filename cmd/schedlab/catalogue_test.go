package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
	"unicode/utf16"
)

// The catalogue of bad inputs: each must be refused by both validate and
// run, with its JSON path and phrase, without a panic, within 10 s and
// without the process growing past 1 GB.

const okCluster = `{"servers": [{"count": 2, "gpus": 4, "gpu_type": "V100"}]}`
const okJobs = `{"jobs": [{"id": "j1", "arrival_s": 0, "gpus": 1, "model": "m", "duration_s": 60}, {"id": "j2", "arrival_s": 5, "gpus": 2, "model": "m", "duration_s": 30}]}`

// doc builds a scenario from its parts; empty parts take working values.
func doc(cluster, workload, extra string) string {
	if cluster == "" {
		cluster = okCluster
	}
	if workload == "" {
		workload = okJobs
	}
	return fmt.Sprintf(`{"name": "c", "cluster": %s, "workload": %s, "policies": [{"name": "fifo"}]%s}`, cluster, workload, extra)
}

func job(fields string) string {
	return `{"jobs": [{"id": "j1", "arrival_s": 0, "gpus": 1, "model": "m", "duration_s": 60` + fields + `}]}`
}

func gen(body string) string { return `{"generator": {` + body + `}}` }

// poissonGen is a Poisson generator whose fields extra (", key: value…")
// adds to or replaces: a key given twice is a problem of its own.
func poissonGen(extra string) string {
	return gen(override(`"kind": "poisson", "jobs": 100, "jobs_per_hour": 10, "gpu_mix": [{"gpus": 1, "weight": 1}], "duration": {"dist": "fixed", "mean_s": 60}, "models": [{"model": "m", "weight": 1}]`, extra))
}

// override returns the object body fields with the fields of extra (a
// body that starts with a comma, or nothing) put in place of those of
// the same name, the others appended, in order.
func override(fields, extra string) string {
	pairs := func(body string) (keys []string, vals map[string]json.RawMessage) {
		dec := json.NewDecoder(strings.NewReader("{" + body + "}"))
		dec.Token()
		vals = map[string]json.RawMessage{}
		for dec.More() {
			t, _ := dec.Token()
			var v json.RawMessage
			dec.Decode(&v)
			keys = append(keys, t.(string))
			vals[t.(string)] = v
		}
		return keys, vals
	}
	keys, vals := pairs(fields)
	extraKeys, extraVals := pairs(strings.TrimPrefix(strings.TrimSpace(extra), ","))
	for _, k := range extraKeys {
		if _, ok := vals[k]; !ok {
			keys = append(keys, k)
		}
		vals[k] = extraVals[k]
	}
	var parts []string
	for _, k := range keys {
		parts = append(parts, fmt.Sprintf("%q: %s", k, vals[k]))
	}
	return strings.Join(parts, ", ")
}

func sweep(body string) string { return `, "sweep": {"label": "l", ` + body + `}` }

func numbers(n int) string {
	vs := make([]string, n)
	for i := range vs {
		vs[i] = fmt.Sprint(i + 1)
	}
	return strings.Join(vs, ", ")
}

func manyJobs(n int) string {
	var b strings.Builder
	b.WriteString(`{"jobs": [`)
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"id":"j%d","arrival_s":%d,"gpus":1,"model":"m","duration_s":60}`, i, i)
	}
	b.WriteString(`]}`)
	return b.String()
}

func utf16Bytes(s string, bigEndian, bom bool) []byte {
	var out []byte
	units := utf16.Encode([]rune(s))
	if bom {
		units = append([]uint16{0xFEFF}, units...)
	}
	for _, u := range units {
		if bigEndian {
			out = append(out, byte(u>>8), byte(u))
		} else {
			out = append(out, byte(u), byte(u>>8))
		}
	}
	return out
}

type badInput struct {
	name string
	doc  string                                // the document, or
	file func(t *testing.T, dir string) string // a path to give the CLI
	want string                                // "path: phrase" (or the phrase of a file-level problem)
}

const analyticPerf = `, "perf": {"model": "analytic"}`

func catalogue() []badInput {
	groups := make([]string, 100)
	for i := range groups {
		groups[i] = `{"count": 100000, "gpus": 64, "gpu_type": "V100"}`
	}
	study := `, "reference": {"source": "s", "values": [{"policy": "FIFO", "metric": "avg_jct_s", "value": 1}]}`
	return []badInput{
		// Files and encodings.
		{name: "empty file", doc: "", want: "the document is empty or ends too early"},
		{name: "only whitespace", doc: " \n\t ", want: "the document is empty or ends too early"},
		{name: "a list", doc: `[]`, want: "must be an object, got a list"},
		{name: "a string", doc: `"scenario"`, want: "must be an object, got the string"},
		{name: "syntax error", doc: "{\n\"name\": }", want: "line 2, column 9: invalid character '}'"},
		{name: "truncated", doc: `{"name": "x", "cluster": {`, want: "the document is empty or ends too early"},
		{name: "trailing data", doc: doc("", "", "") + ` {}`, want: "unexpected data after the JSON document"},
		{name: "a key given twice", doc: doc(`{"servers": [{"count": 2, "gpus": 4, "gpus": 8, "gpu_type": "V100"}]}`, "", ""), want: "cluster.servers[0].gpus: is given twice in one object (the second time at line 1, column 63)"},
		{name: "a policy given twice", doc: `{"name": "c", "cluster": ` + okCluster + `, "workload": ` + okJobs + `, "policies": [{"name": "fifo"}], "policies": [{"name": "sjf"}]}`, want: "policies: is given twice in one object"},
		{name: "8,000,000 numbers", doc: `{"name": "x", "seeds": [` + strings.Repeat("0,", 8_000_000) + `0]}`, want: "the document has more than 2,000,000 elements"},
		{name: "660,000 tiny jobs", doc: doc("", `{"jobs": [`+strings.Repeat(`{"id": "a"},`, 660_000)+`{}]}`, ""), want: "workload.jobs: lists 660,001 jobs, above the limit of 100,000 explicit jobs"},
		{name: "nested 20,000 deep", doc: strings.Repeat("[", 20000) + strings.Repeat("]", 20000), want: "exceeded max depth"},
		{name: "binary", doc: "\x89PNG\r\n\x1a\n\x00\x00", want: "invalid character"},
		{name: "UTF-16 LE with BOM", file: bytesFile(utf16Bytes(doc("", "", ""), false, true)), want: "UTF-16 or UTF-32 text; save it as UTF-8"},
		{name: "UTF-16 BE with BOM", file: bytesFile(utf16Bytes(doc("", "", ""), true, true)), want: "UTF-16 or UTF-32 text; save it as UTF-8"},
		{name: "UTF-16 LE without BOM", file: bytesFile(utf16Bytes(doc("", "", ""), false, false)), want: "UTF-16 or UTF-32 text; save it as UTF-8"},
		{name: "UTF-8 BOM then a problem", doc: "\xEF\xBB\xBF" + doc(`{"servers": [{"count": 1, "gpus": 0, "gpu_type": "V100"}]}`, "", ""), want: "cluster.servers[0].gpus: must be at least 1, got 0"},
		{name: "/dev/zero", file: fixed("/dev/zero"), want: "/dev/zero: is a device, not a scenario file"},
		{name: "/dev/urandom", file: fixed("/dev/urandom"), want: "/dev/urandom: is a device, not a scenario file"},
		{name: "named pipe", file: fifoFile, want: "is a named pipe (FIFO), not a scenario file"},
		{name: "directory", file: func(t *testing.T, dir string) string { return dir }, want: "is a directory, not a scenario file"},
		{name: "missing file", file: fixed("/nonexistent/scenario.json"), want: `no built-in scenario or file named "/nonexistent/scenario.json"`},
		{name: "file over the size limit", file: bigFile, want: "above the limit of 16.0 MiB for a scenario"},
		{name: "stdin without end", file: endlessStdin, want: "standard input: more than 16.0 MiB, the limit for a scenario"},

		// Numbers.
		{name: "count 1e400", doc: doc(`{"servers": [{"count": 1e400, "gpus": 4, "gpu_type": "V100"}]}`, "", ""), want: "cluster.servers[0].count: the number 1e400 is too large"},
		{name: "arrival 1e400", doc: doc("", `{"jobs": [{"id": "j1", "arrival_s": 1e400, "gpus": 1, "model": "m", "duration_s": 60}]}`, ""), want: "workload.jobs[0].arrival_s: the number 1e400 is too large"},
		{name: "name 1e400", doc: `{"name": 1e400, "cluster": ` + okCluster + `, "workload": ` + okJobs + `, "policies": [{"name": "fifo"}]}`, want: "name: must be a string, got the number 1e400"},
		{name: "seed -1", doc: doc("", "", `, "seeds": [-1]`), want: "seeds[0]: must be a whole number from 0 to 18446744073709551615, got the number -1"},
		{name: "seed 2^64", doc: doc("", "", `, "seeds": [18446744073709551616]`), want: "seeds[0]: must be a whole number from 0 to 18446744073709551615, got the number 18446744073709551616"},
		{name: "seed 1.5", doc: doc("", "", `, "seeds": [1.5]`), want: "seeds[0]: must be a whole number, got the number 1.5"},
		{name: "seed string", doc: doc("", "", `, "seeds": ["1"]`), want: `seeds[0]: must be a whole number, got the string "1"`},
		{name: "seed twice", doc: doc("", "", `, "seeds": [3, 3]`), want: "seeds[1]: seed 3 is listed twice"},
		{name: "gpus 4.5", doc: doc(`{"servers": [{"count": 2, "gpus": 4.5, "gpu_type": "V100"}]}`, "", ""), want: "cluster.servers[0].gpus: must be a whole number, got the number 4.5"},
		{name: "gpus string", doc: doc(`{"servers": [{"count": 2, "gpus": "four", "gpu_type": "V100"}]}`, "", ""), want: `cluster.servers[0].gpus: must be a whole number, got the string "four"`},

		// Cluster.
		{name: "gpus 0", doc: doc(`{"servers": [{"count": 2, "gpus": 0, "gpu_type": "V100"}]}`, "", ""), want: "cluster.servers[0].gpus: must be at least 1, got 0"},
		{name: "gpus 65", doc: doc(`{"servers": [{"count": 2, "gpus": 65, "gpu_type": "V100"}]}`, "", ""), want: "cluster.servers[0].gpus: must be at most 64, got 65"},
		{name: "count 0", doc: doc(`{"servers": [{"count": 0, "gpus": 4, "gpu_type": "V100"}]}`, "", ""), want: "cluster.servers[0].count: must be at least 1, got 0"},
		{name: "count 200,000", doc: doc(`{"servers": [{"count": 200000, "gpus": 4, "gpu_type": "V100"}]}`, "", ""), want: "cluster.servers[0].count: must be at most 100000, got 200000"},
		{name: "no gpu_type", doc: doc(`{"servers": [{"count": 2, "gpus": 4}]}`, "", ""), want: "cluster.servers[0].gpu_type: is required"},
		{name: "no servers", doc: doc(`{"servers": []}`, "", ""), want: "cluster.servers: must list at least one server group"},
		{name: "100 × 100,000 × 64 GPUs", doc: doc(`{"servers": [`+strings.Join(groups, ",")+`]}`, "", ""), want: "cluster.servers: the cluster has 640,000,000 GPUs"},
		{name: "GPUs just over the limit", doc: doc(`{"servers": [{"count": 1563, "gpus": 64, "gpu_type": "V100"}]}`, "", ""), want: "cluster.servers: the cluster has 100,032 GPUs"},
		{name: "negative memory", doc: doc(`{"servers": [{"count": 2, "gpus": 4, "gpu_type": "V100", "gpu_memory_gb": -16}]}`, "", ""), want: "cluster.servers[0].gpu_memory_gb: must be at least 0, got -16"},

		// Top level.
		{name: "null", doc: `null`, want: "name: is required"},
		{name: "no name", doc: `{"cluster": ` + okCluster + `, "workload": ` + okJobs + `, "policies": [{"name": "fifo"}]}`, want: "name: is required"},
		{name: "misspelt field", doc: doc("", "", `, "clustr": {}`), want: `clustr: unknown field (did you mean "cluster"?)`},
		{name: "no policies", doc: `{"name": "c", "cluster": ` + okCluster + `, "workload": ` + okJobs + `, "policies": []}`, want: "policies: must list at least one policy"},
		{name: "unknown policy", doc: `{"name": "c", "cluster": ` + okCluster + `, "workload": ` + okJobs + `, "policies": [{"name": "fifoo"}]}`, want: `policies[0].name: unknown policy "fifoo"`},
		{name: "params a list", doc: `{"name": "c", "cluster": ` + okCluster + `, "workload": ` + okJobs + `, "policies": [{"name": "sjf", "params": [1]}]}`, want: "policies[0].params: must be an object, got a list"},
		{name: "param out of enum", doc: `{"name": "c", "cluster": ` + okCluster + `, "workload": ` + okJobs + `, "policies": [{"name": "sjf", "params": {"key": "size"}}]}`, want: `policies[0].params.key: must be one of duration, gpus, gpu_time, got "size"`},
		{name: "same label twice", doc: `{"name": "c", "cluster": ` + okCluster + `, "workload": ` + okJobs + `, "policies": [{"name": "fifo"}, {"name": "fifo"}]}`, want: `policies[1].label: policies[0] is also called "FIFO"`},
		{name: "unknown plot", doc: doc("", "", `, "plots": ["pie"]`), want: `plots[0]: unknown plot "pie"`},
		{name: "sharing limit 100", doc: doc("", "", `, "engine": {"sharing_limit": 100}`), want: "engine.sharing_limit: must be at most 16, got 100"},
		{name: "restart 1e300", doc: doc("", "", `, "engine": {"restart_s": 1e300}`), want: "engine.restart_s: must be at most 1e10, got 1e+300"},
		{name: "max_events -1", doc: doc("", "", `, "engine": {"max_events": -1}`), want: "engine.max_events: must be at least 0, got -1"},

		// Jobs.
		{name: "both jobs and generator", doc: doc("", `{"jobs": [{"id": "a", "gpus": 1, "model": "m", "duration_s": 1}], "generator": {"kind": "poisson"}}`, ""), want: "workload: give either jobs or generator, not both"},
		{name: "no jobs", doc: doc("", `{}`, ""), want: "workload: needs jobs or a generator"},
		{name: "job without id", doc: doc("", `{"jobs": [{"arrival_s": 0, "gpus": 1, "model": "m", "duration_s": 60}]}`, ""), want: "workload.jobs[0].id: is required"},
		{name: "duplicate id", doc: doc("", `{"jobs": [{"id": "a", "gpus": 1, "model": "m", "duration_s": 6}, {"id": "a", "gpus": 1, "model": "m", "duration_s": 6}]}`, ""), want: `workload.jobs[1].id: "a" is already the id of workload.jobs[0]`},
		{name: "job without model", doc: doc("", `{"jobs": [{"id": "a", "gpus": 1, "duration_s": 6}]}`, ""), want: "workload.jobs[0].model: is required"},
		{name: "job without duration", doc: doc("", `{"jobs": [{"id": "a", "gpus": 1, "model": "m"}]}`, ""), want: "workload.jobs[0].duration_s: is required by the constant perf model"},
		{name: "misspelt job field", doc: doc("", job(`, "arival_s": 3`), ""), want: `workload.jobs[0].arival_s: unknown field (did you mean "arrival_s"?)`},
		{name: "negative arrival", doc: doc("", job(`, "deadline_s": -1`), ""), want: "workload.jobs[0].deadline_s: must be at least 0, got -1"},
		{name: "arrival 1e11", doc: doc("", `{"jobs": [{"id": "j1", "arrival_s": 1e11, "gpus": 1, "model": "m", "duration_s": 60}]}`, ""), want: "workload.jobs[0].arrival_s: must be at most 1e+10, got 1e+11"},
		{name: "duration 1e-9", doc: doc("", `{"jobs": [{"id": "j1", "arrival_s": 5, "gpus": 1, "model": "m", "duration_s": 1e-9}]}`, ""), want: "workload.jobs[0].duration_s: must be at least 0.001 s when given"},
		{name: "iterations 1e300", doc: doc("", job(`, "iterations": 1e300`), ""), want: "workload.jobs[0].iterations: must be at most 1e+15"},
		{name: "compute 2", doc: doc("", job(`, "compute": 2`), ""), want: "workload.jobs[0].compute: must be at most 1, got 2"},
		{name: "job gpus 5000", doc: doc("", `{"jobs": [{"id": "j1", "gpus": 5000, "model": "m", "duration_s": 60}]}`, ""), want: "workload.jobs[0].gpus: must be at most 4096, got 5000"},
		{name: "100,001 explicit jobs", doc: doc("", manyJobs(100_001), ""), want: "workload.jobs: lists 100,001 jobs, above the limit of 100,000 explicit jobs"},
		{name: "200,000 explicit jobs", doc: doc("", manyJobs(200_000), ""), want: "the document has more than 2,000,000 elements (values, keys and lists), the limit for one document"},

		// Generators.
		{name: "unknown generator", doc: doc("", gen(`"kind": "philly"`), ""), want: `workload.generator.kind: unknown generator "philly"`},
		{name: "generator without kind", doc: doc("", gen(`"jobs": 5`), ""), want: "workload.generator.kind: is required"},
		{name: "generator a string", doc: doc("", `{"generator": "poisson"}`, ""), want: `workload.generator: must be an object with a "kind"`},
		{name: "poisson 10^7 jobs", doc: doc("", poissonGen(`, "jobs": 10000000`), ""), want: "workload.generator.jobs: must be at most 1000000, got 10000000"},
		{name: "poisson -1 jobs", doc: doc("", gen(`"kind": "poisson", "jobs": -1`), ""), want: "workload.generator.jobs: must be at least 1, got -1"},
		{name: "gavel 10^8 jobs", doc: doc("", gen(`"kind": "gavel", "jobs": 100000000`), ""), want: "workload.generator.jobs: must be at most 1000000, got 100000000"},
		{name: "base_jobs × scale", doc: doc("", gen(`"kind": "sjf-bsbf-sim", "base_jobs": 1000000, "scale": 100`), ""), want: "workload.generator: makes 100,000,000 jobs (base_jobs × scale), above the limit of 1,000,000 jobs per run"},
		{name: "lognormal without sigma", doc: doc("", poissonGen(`, "duration": {"dist": "lognormal", "mean_s": 60}`), ""), want: "workload.generator.duration.sigma: must be positive for the lognormal distribution"},
		{name: "mean_s 1e300", doc: doc("", poissonGen(`, "duration": {"dist": "exponential", "mean_s": 1e300}`), ""), want: "workload.generator.duration.mean_s: must be at most 1e10, got 1e+300"},
		{name: "gavel 10^300 minutes", doc: doc("", gen(`"kind": "gavel", "jobs": 10, "short_log10_min": [1, 300]`), ""), want: "workload.generator.short_log10_min[1]: must be between -3 and 8"},
		{name: "gavel slo 1e308", doc: doc("", gen(`"kind": "gavel", "jobs": 10, "slo_factors": [1e308]`), ""), want: "workload.generator.slo_factors[0]: must be between 1 and 1e6"},
		{name: "gavel unknown model", doc: doc("", gen(`"kind": "gavel", "jobs": 10, "models": ["GPT"]`), ""), want: "workload.generator.models: no job type matches [GPT]"},

		// Study: runs, sweeps, measure, checks.
		{name: "3,000,000 job records", doc: doc("", poissonGen(`, "jobs": 1000000`), `, "seeds": [1, 2, 3]`), want: "seeds: asks for 3,000,000 job records over all runs"},
		{name: "10,100 runs", doc: doc("", "", sweep(`"values": [`+numbers(100)+`], "params": ["engine.restart_s"]`)+`, "seeds": [`+numbers(101)+`]`), want: "sweep.values: asks for 10,100 runs (100 sweep values × 101 seeds × 1 policies), above the limit of 10,000 runs"},
		{name: "101 sweep values", doc: doc("", "", sweep(`"values": [`+numbers(101)+`], "params": ["engine.restart_s"]`)), want: "sweep.values: lists 101 values, above the limit of 100"},
		{name: "sweep path that does not exist", doc: doc("", poissonGen(""), sweep(`"values": [1, 2], "params": ["workload.generator.jobz"]`)), want: `workload.generator.jobz: unknown field (did you mean "jobs"?) (at sweep value 1)`},
		{name: "sweep scales nothing", doc: doc("", poissonGen(""), sweep(`"values": [1, 2], "scale": ["workload.generator.count"]`)), want: "workload.generator.count: the sweep scales this path, but the scenario has no number there (at sweep value 1)"},
		{name: "sweep index out of range", doc: doc("", "", sweep(`"values": [1, 2], "params": ["cluster.servers[3].count"]`)), want: "cluster.servers[3].count: no element [3] (at sweep value 1)"},
		{name: "sweep values decrease", doc: doc("", "", sweep(`"values": [2, 1], "params": ["engine.restart_s"]`)), want: "sweep.values[1]: values must increase"},
		{name: "sweep 1e6 servers", doc: doc("", "", sweep(`"values": [1, 1e6], "params": ["cluster.servers[0].count"]`)), want: "cluster.servers[0].count: must be at most 100000, got 1000000 (at sweep value 1e+06)"},
		{name: "sweep 2.5 into an integer", doc: doc("", "", sweep(`"values": [1, 2.5], "params": ["cluster.servers[0].count"]`)), want: "cluster.servers[0].count: must be a whole number, got the number 2.5 (at sweep value 2.5)"},
		{name: "sweep of too many jobs", doc: doc("", poissonGen(""), sweep(`"values": [1, 20000], "scale": ["workload.generator.jobs"]`)), want: "workload.generator.jobs: must be at most 1000000, got 2000000 (at sweep value 20000)"},
		{name: "jobs_to beyond the jobs", doc: doc("", "", `, "measure": {"jobs_to": 10}`), want: "measure.jobs_to: is 10 but the workload has only 2 jobs"},
		{name: "jobs_to below jobs_from", doc: doc("", "", `, "measure": {"jobs_from": 2, "jobs_to": 1}`), want: "measure.jobs_to: must be above jobs_from (2), got 1"},
		{name: "reference to no policy", doc: doc("", "", `, "reference": {"source": "s", "values": [{"policy": "SJF", "metric": "avg_jct_s", "value": 1}]}`), want: `reference.values[0].policy: no policy is labelled "SJF"`},
		{name: "unknown metric", doc: doc("", "", study+`, "checks": [{"id": "a", "description": "d", "kind": "value", "of": {"policy": "FIFO", "metric": "speed"}, "target": 1}]`), want: "checks[0].of.metric:"},
		{name: "check id twice", doc: doc("", "", study+`, "checks": [{"id": "a", "description": "d", "kind": "value", "of": {"policy": "FIFO", "metric": "avg_jct_s"}, "target": 1}, {"id": "a", "description": "d", "kind": "value", "of": {"policy": "FIFO", "metric": "avg_jct_s"}, "target": 1}]`), want: `checks[1].id: "a" is used twice`},
		{name: "quick check unknown", doc: doc("", "", study+`, "quick": {"checks": ["zz"]}`), want: `quick.checks[0]: no check has the id "zz"`},
		{name: "quick set bad path", doc: doc("", poissonGen(""), `, "quick": {"set": [{"param": "workload.generator.jobz", "value": 5}]}`), want: `workload.generator.jobz: unknown field (did you mean "jobs"?) (in the quick version)`},

		// Perf models and policies.
		{name: "unknown perf model", doc: doc("", "", `, "perf": {"model": "magic"}`), want: `perf.model: unknown perf model "magic"`},
		{name: "model not in the analytic table", doc: doc("", "", analyticPerf), want: `workload.jobs[0]: perf: job j1: model "m" is not in the analytic model's table`},
		{name: "job type not in the throughput table", doc: doc("", "", `, "perf": {"model": "throughput"}`), want: `workload.jobs[0]: perf: job j1: the throughput table has no job type "m"`},
		{name: "uniform interference 1e308", doc: doc("", "", `, "perf": {"interference": {"uniform": 1e308}}, "engine": {"sharing_limit": 2}`), want: "perf.interference.uniform: must be at most 100, got 1e+308"},
		{name: "uniform interference 0.5", doc: doc("", "", `, "perf": {"interference": {"uniform": 0.5}}`), want: "perf.interference.uniform: must be at least 1 (a slowdown), got 0.5"},
		{name: "matrix entry 1e308", doc: doc("", "", `, "perf": {"interference": {"models": ["m"], "matrix": [[1e308]]}}`), want: "perf.interference.matrix[0][0]: must be a slowdown of at most 100"},
		{name: "matrix shape", doc: doc("", "", `, "perf": {"interference": {"models": ["m", "n"], "matrix": [[1, 1]]}}`), want: "perf.interference.matrix: has 1 rows but there are 2 models"},
		{name: "speed 1e308", doc: doc("", "", `, "perf": {"params": {"type_speed": [{"gpu_type": "V100", "speed": 1e308}]}}`), want: "perf.params.type_speed[0].speed: must be at most 1000, got 1e+308"},
		{name: "AlloX with multi-GPU jobs", doc: `{"name": "c", "cluster": ` + okCluster + `, "workload": ` + okJobs + `, "perf": {"model": "throughput"}, "policies": [{"name": "gavel-allox"}]}`, want: "workload.jobs[0]: perf: job j1: the throughput table has no job type"},
		{name: "AlloX with 2-GPU Gavel jobs", doc: `{"name": "c", "cluster": ` + okCluster + `, "workload": {"jobs": [{"id": "a", "gpus": 2, "model": "ResNet-50", "batch_size": 64, "duration_s": 600}]}, "perf": {"model": "throughput"}, "policies": [{"name": "gavel-allox"}]}`, want: `policies[0].name: AlloX schedules jobs of at most 1 GPU(s), but job "a" asks for 2`},
	}
}

func fixed(path string) func(*testing.T, string) string {
	return func(*testing.T, string) string { return path }
}

func bytesFile(data []byte) func(*testing.T, string) string {
	return func(t *testing.T, dir string) string {
		p := filepath.Join(dir, "doc.json")
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
}

// bigFile is a sparse file just over the size limit.
func bigFile(t *testing.T, dir string) string {
	p := filepath.Join(dir, "big.json")
	f, err := os.Create(p)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := f.Truncate(16<<20 + 1); err != nil {
		t.Fatal(err)
	}
	return p
}

// endlessStdin makes standard input a stream of spaces that never ends.
func endlessStdin(t *testing.T, _ string) string {
	old := stdin
	stdin = endless{}
	t.Cleanup(func() { stdin = old })
	return "-"
}

type endless struct{}

func (endless) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = ' '
	}
	return len(p), nil
}

var _ io.Reader = endless{}

func TestBadInputCatalogue(t *testing.T) {
	cat := catalogue()
	if len(cat) < 80 {
		t.Fatalf("the catalogue has %d inputs, want at least 80", len(cat))
	}
	var peakSys uint64
	slowest, slowestName := time.Duration(0), ""
	for _, c := range cat {
		for _, cmd := range []string{"validate", "run"} {
			t.Run(cmd+"/"+c.name, func(t *testing.T) {
				dir := t.TempDir()
				var path string
				if c.file != nil {
					path = c.file(t, dir)
				} else {
					path = filepath.Join(dir, "doc.json")
					if err := os.WriteFile(path, []byte(c.doc), 0o644); err != nil {
						t.Fatal(err)
					}
				}
				var out, errOut bytes.Buffer
				start := time.Now()
				code := dispatch([]string{cmd, path}, &out, &errOut)
				took := time.Since(start)
				if took > slowest {
					slowest, slowestName = took, cmd+"/"+c.name
				}
				if code != exitInvalid {
					t.Errorf("exit %d, want %d\nstdout: %.500s\nstderr: %.500s", code, exitInvalid, out.String(), errOut.String())
				}
				if !strings.Contains(errOut.String(), c.want) {
					t.Errorf("stderr lacks %q:\n%.1000s", c.want, errOut.String())
				}
				// Each refusal takes milliseconds (the slowest is logged
				// below); the bound, far above, catches one that builds the
				// huge thing it should refuse, on a loaded machine too.
				if took > 2*time.Minute {
					t.Errorf("took %v, more than 2 minutes", took)
				}
				var ms runtime.MemStats
				runtime.ReadMemStats(&ms)
				peakSys = max(peakSys, ms.Sys)
			})
		}
	}
	t.Logf("%d bad inputs × validate and run; slowest %v (%s); the test process took %d MB from the OS at most", len(cat), slowest, slowestName, peakSys>>20)
	if peakSys > 1<<30 {
		t.Errorf("the process grew to %d MB", peakSys>>20)
	}
}

// Inputs the issue found refused or garbled that are in fact fine: they
// validate and run.
func TestAcceptedInputs(t *testing.T) {
	for name, d := range map[string]string{
		"gpus 4.0 and count 2e0": doc(`{"servers": [{"count": 2e0, "gpus": 4.0, "gpu_type": "V100"}]}`, "", ""),
		"UTF-8 byte-order mark":  "\xEF\xBB\xBF" + doc("", "", ""),
		"seed 2^63 and 2^64-1":   doc("", "", `, "seeds": [9223372036854775808, 18446744073709551615]`),
		"sweep writes 1e6 into an integer": doc("", poissonGen(""), sweep(`"values": [10, 1e6], "params": ["workload.generator.jobs"]`)+
			`, "quick": {"values": [10]}, "reference": {"source": "s", "values": [{"policy": "FIFO", "metric": "avg_jct_s", "x": 10, "value": 1}]}`),
		"control characters in labels": `{"name": "c\u001b[2J", "cluster": ` + okCluster + `, "workload": ` + okJobs + `, "policies": [{"name": "fifo", "label": "F\u001b[31m"}]}`,
	} {
		t.Run(name, func(t *testing.T) {
			p := filepath.Join(t.TempDir(), "doc.json")
			if err := os.WriteFile(p, []byte(d), 0o644); err != nil {
				t.Fatal(err)
			}
			for _, args := range [][]string{{"validate", p}, {"run", p, "--quick"}} {
				var out, errOut bytes.Buffer
				if code := dispatch(args, &out, &errOut); code != exitOK {
					t.Fatalf("%v: exit %d\n%s\n%s", args, code, out.String(), errOut.String())
				}
			}
		})
	}
}

// The largest cluster and the most runs the limits allow run to the end.
func TestLargestClusterAndMostRuns(t *testing.T) {
	for name, d := range map[string]string{
		"100,000 GPUs": `{"name": "g", "cluster": {"servers": [{"count": 12500, "gpus": 8, "gpu_type": "V100"}]}, "workload": ` +
			gen(`"kind": "poisson", "jobs": 2000, "jobs_per_hour": 2000, "gpu_mix": [{"gpus": 1, "weight": 1}, {"gpus": 64, "weight": 1}], "duration": {"dist": "fixed", "mean_s": 600}, "models": [{"model": "m", "weight": 1}]`) +
			`, "policies": [{"name": "fifo"}]}`,
		"10,000 runs": doc("", "", sweep(`"values": [`+numbers(100)+`], "params": ["engine.restart_s"]`)+`, "seeds": [`+numbers(100)+`]`),
	} {
		t.Run(name, func(t *testing.T) {
			p := filepath.Join(t.TempDir(), "doc.json")
			if err := os.WriteFile(p, []byte(d), 0o644); err != nil {
				t.Fatal(err)
			}
			var out, errOut bytes.Buffer
			if code := dispatch([]string{"run", p}, &out, &errOut); code != exitOK {
				t.Fatalf("exit %d\n%.2000s", code, errOut.String())
			}
		})
	}
}
