package trace

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"strconv"

	"github.com/schedlab/schedlab/sim/workload"
)

// jobsColumns is schedlab's jobs CSV: every field of a job spec, so that
// export → import gives the same jobs. Empty cells are fields not given.
var jobsColumns = []string{"id", "arrival_s", "model", "gpus", "batch_size", "iterations", "duration_s",
	"weight", "entity", "memory_gb", "compute", "deadline_s", "gpu_type"}

// WriteJobsCSV writes jobs in schedlab's jobs CSV, numbers in the
// shortest form that reads back to the same float64.
func WriteJobsCSV(w io.Writer, jobs []workload.Job) error {
	cw := csv.NewWriter(w)
	if err := cw.Write(jobsColumns); err != nil {
		return err
	}
	num := func(v float64) string {
		if v == 0 {
			return ""
		}
		return strconv.FormatFloat(v, 'g', -1, 64)
	}
	for _, j := range jobs {
		batch := ""
		if j.BatchSize != 0 {
			batch = strconv.Itoa(j.BatchSize)
		}
		rec := []string{j.Name, strconv.FormatFloat(j.ArrivalS, 'g', -1, 64), j.Model, strconv.Itoa(j.GPUs), batch,
			num(j.Iterations), num(j.DurationS), num(j.Weight), j.Entity, num(j.MemoryGB), num(j.Compute), num(j.DeadlineS), j.GPUType}
		if err := cw.Write(rec); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

func readJobsCSV(r io.Reader, b *builder) error {
	t, err := newTable(r, b, ',', jobsColumns, []string{"id", "arrival_s", "model", "gpus"}, false)
	if err != nil {
		return err
	}
	b.columns = make(map[string]string, len(jobsColumns)) // the columns are the fields
	for _, c := range jobsColumns {
		b.columns[c] = c
	}
	opt := func(name string) float64 {
		if !t.has(name) || t.empty(name) {
			return 0
		}
		return t.num(name)
	}
	for t.next() {
		if !present(t, "id", "arrival_s", "model", "gpus") {
			continue
		}
		rw := parsed{line: t.line, submitS: t.num("arrival_s")}
		j := workload.Job{Name: t.str("id"), Model: t.str("model"), GPUs: t.integer("gpus"),
			Iterations: opt("iterations"), DurationS: opt("duration_s"), Weight: opt("weight"), Entity: t.str("entity"),
			MemoryGB: opt("memory_gb"), Compute: opt("compute"), DeadlineS: opt("deadline_s"), GPUType: t.str("gpu_type")}
		if t.has("batch_size") && !t.empty("batch_size") {
			j.BatchSize = t.integer("batch_size")
		}
		rw.job = j
		if t.bad {
			continue
		}
		if col, msg := b.checkFields(&j); msg != "" {
			t.fail("column %s: %s", col, msg)
			continue
		}
		if gpusAndTime(t, &rw) {
			b.add(rw)
		}
	}
	return nil
}

// ScenarioInfo names and describes an imported scenario.
type ScenarioInfo struct {
	Name        string
	Title       string
	Description string
	Source      string // the file, for the description
}

// scenarioDoc is the JSON of an imported scenario, in the order the
// scenario format documents its fields.
type scenarioDoc struct {
	Name        string          `json:"name"`
	Title       string          `json:"title,omitempty"`
	Description string          `json:"description,omitempty"`
	Tags        []string        `json:"tags,omitempty"`
	Cluster     json.RawMessage `json:"cluster"`
	Workload    struct {
		Jobs []workload.Job `json:"jobs"`
	} `json:"workload"`
	Perf     Perf             `json:"perf"`
	Policies []map[string]any `json:"policies"`
	Seeds    []uint64         `json:"seeds"`
}

// Describe says in one paragraph where the jobs came from.
func (r *Result) Describe(source string) string {
	var b bytes.Buffer
	fmt.Fprintf(&b, "Imported from %s (%s). %s.", source, r.Format, r.Summary())
	for _, n := range r.Notes {
		fmt.Fprintf(&b, " %s.", n)
	}
	fmt.Fprintf(&b, " Cluster: %s.", r.Cluster.Doc)
	return b.String()
}

// Scenario writes the imported jobs as a scenario document on the
// result's cluster, perf model and policies, with seed 1.
func (r *Result) Scenario(info ScenarioInfo) ([]byte, error) {
	cl, err := json.Marshal(r.Cluster.Spec)
	if err != nil {
		return nil, err
	}
	doc := scenarioDoc{Name: info.Name, Title: info.Title, Description: info.Description,
		Tags: []string{"trace:" + r.Format}, Cluster: cl, Perf: r.Perf, Seeds: []uint64{1}}
	if doc.Name == "" {
		doc.Name = "imported-" + r.Format
	}
	if doc.Title == "" {
		doc.Title = fmt.Sprintf("%d jobs imported from a %s trace", len(r.Jobs), r.Format)
	}
	if doc.Description == "" {
		doc.Description = r.Describe(info.Source)
	}
	doc.Workload.Jobs = r.Jobs
	if doc.Workload.Jobs == nil {
		doc.Workload.Jobs = []workload.Job{}
	}
	policies := r.Cluster.Policies
	if r.AtZero && len(r.Cluster.BatchPolicies) > 0 {
		policies = r.Cluster.BatchPolicies
	}
	for _, p := range policies {
		doc.Policies = append(doc.Policies, map[string]any{"name": p})
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(doc); err != nil {
		return nil, err
	}
	return compactJobs(buf.Bytes()), nil
}

// compactJobs puts each job of an indented document on one line, so that
// a scenario of thousands of jobs stays readable and small.
func compactJobs(doc []byte) []byte {
	var v struct {
		Workload struct {
			Jobs []json.RawMessage `json:"jobs"`
		} `json:"workload"`
	}
	if json.Unmarshal(doc, &v) != nil || len(v.Workload.Jobs) == 0 {
		return doc
	}
	start := bytes.Index(doc, []byte(`"jobs": [`))
	if start < 0 {
		return doc
	}
	open := start + len(`"jobs": [`)
	end := matchingBracket(doc, open-1)
	if end < 0 {
		return doc
	}
	var out bytes.Buffer
	out.Write(doc[:open])
	for i, j := range v.Workload.Jobs {
		var c bytes.Buffer
		if json.Compact(&c, j) != nil {
			return doc
		}
		if i > 0 {
			out.WriteByte(',')
		}
		out.WriteString("\n      ")
		out.Write(c.Bytes())
	}
	out.WriteString("\n    ")
	out.Write(doc[end:])
	return out.Bytes()
}

// matchingBracket returns the index of the ']' closing the '[' at i,
// skipping strings.
func matchingBracket(doc []byte, i int) int {
	depth, inStr, esc := 0, false, false
	for k := i; k < len(doc); k++ {
		c := doc[k]
		switch {
		case inStr && esc:
			esc = false
		case inStr && c == '\\':
			esc = true
		case inStr && c == '"':
			inStr = false
		case inStr:
		case c == '"':
			inStr = true
		case c == '[' || c == '{':
			depth++
		case c == ']' || c == '}':
			depth--
			if depth == 0 {
				return k
			}
		}
	}
	return -1
}
