package app

import (
	"fmt"
	"math"
	"reflect"
	"sort"
	"strings"

	"github.com/schedlab/schedlab/sim/perf"
	"github.com/schedlab/schedlab/sim/workload"
	"github.com/schedlab/schedlab/web/doc"
	"github.com/schedlab/schedlab/web/form"
)

// Interference modes of the editor.
const (
	InterferenceNone    = "none"
	InterferenceUniform = "uniform"
	InterferenceMatrix  = "matrix"
)

const interferencePath = "perf.interference"

// InterferenceMode tells how GPU sharing slows jobs down.
func (e *Editor) InterferenceMode() string {
	o := doc.Obj(e.Tree, interferencePath)
	switch {
	case o == nil:
		return InterferenceNone
	case e.Get(interferencePath+".uniform") != nil:
		return InterferenceUniform
	}
	return InterferenceMatrix
}

// SetInterferenceMode switches mode, putting the current settings aside.
func (e *Editor) SetInterferenceMode(mode string) {
	cur := e.InterferenceMode()
	if mode == cur {
		return
	}
	e.structural(func() {
		if o := doc.Obj(e.Tree, interferencePath); o != nil {
			e.Stash["interference:"+cur] = doc.Clone(o)
		}
		if mode == InterferenceNone {
			e.Tree = doc.Delete(e.Tree, interferencePath)
			return
		}
		next, ok := e.Stash["interference:"+mode]
		if !ok {
			o := doc.NewObject()
			if mode == InterferenceUniform {
				o.Set("uniform", jsonNumber(1.5))
			} else {
				models := e.WorkloadModels()
				o.Set("models", stringsToList(models))
				o.Set("matrix", ones(len(models)))
			}
			next = o
		}
		if t, err := doc.Set(e.Tree, interferencePath, doc.Clone(next)); err == nil {
			e.Tree = t
		}
	})
}

// InterferenceFields are the single inputs of the current mode.
func (e *Editor) InterferenceFields() []*form.Field {
	return cached(e, "interference-fields", func() []*form.Field {
		if e.InterferenceMode() != InterferenceUniform {
			return nil
		}
		var out []*form.Field
		for _, w := range form.Describe(reflect.TypeOf(perf.InterferenceSpec{}), nil, interferencePath, e.Tree) {
			if w.Field != nil && w.Field.Name == "uniform" {
				w.Field.Label = "Slowdown for every pair"
				w.Field.Optional = false
				out = append(out, w.Field)
			}
		}
		return out
	})
}

// InterferenceWidgets are the matrix mode's other settings.
func (e *Editor) InterferenceWidgets() []form.Widget {
	return cached(e, "interference", func() []form.Widget {
		if e.InterferenceMode() != InterferenceMatrix {
			return nil
		}
		return form.Describe(reflect.TypeOf(perf.InterferenceSpec{}), nil, interferencePath, e.Tree, "uniform", "models", "matrix")
	})
}

// MatrixRow is one row of the interference matrix.
type MatrixRow struct {
	Index int
	Model *form.Field
	Cells []*form.Field
}

// MatrixModels are the matrix's row and column labels as typed.
func (e *Editor) MatrixModels() []string {
	var out []string
	for _, v := range doc.List(e.Tree, interferencePath+".models") {
		s, _ := v.(string)
		out = append(out, s)
	}
	return out
}

// MatrixRows describe the matrix's inputs.
func (e *Editor) MatrixRows() []MatrixRow {
	return cached(e, "matrix", func() []MatrixRow {
		if e.InterferenceMode() != InterferenceMatrix {
			return nil
		}
		models := e.MatrixModels()
		var rows []MatrixRow
		for i, m := range models {
			mp := doc.Index(interferencePath+".models", i)
			row := MatrixRow{Index: i, Model: &form.Field{Path: mp, ID: form.ID(mp), Name: "model", Label: "Model", Kind: form.String}}
			for k := range models {
				p := doc.Index(doc.Index(interferencePath+".matrix", i), k)
				one := 1.0
				row.Cells = append(row.Cells, &form.Field{Path: p, ID: form.ID(p), Name: "slowdown", Kind: form.Number, Min: &one,
					Label: fmt.Sprintf("%s next to %s", m, models[k])})
			}
			rows = append(rows, row)
		}
		return rows
	})
}

// CellStyle colours a matrix cell by its slowdown, a heat map from white
// (1, no slowdown) to deep red (the largest value, at least 2).
func (e *Editor) CellStyle(path string) string {
	v, ok := e.Number(path)
	if !ok || v < 1 {
		return ""
	}
	hi := cached(e, "matrix-max", func() float64 {
		hi := 2.0
		for _, row := range doc.List(e.Tree, interferencePath+".matrix") {
			cells, _ := row.([]any)
			for _, c := range cells {
				if x, ok := doc.Num(c, ""); ok && x > hi && !math.IsInf(x, 0) {
					hi = x
				}
			}
		}
		return hi
	})
	t := math.Min(1, (v-1)/(hi-1))
	// white -> #fdbb84 -> #b30000
	r, g, b := lerp3(t, [3]float64{255, 255, 255}, [3]float64{253, 187, 132}, [3]float64{179, 0, 0})
	fg := "#1b1b1b"
	if t > 0.6 {
		fg = "#fff"
	}
	return fmt.Sprintf("background:rgb(%d,%d,%d);color:%s", r, g, b, fg)
}

func lerp3(t float64, a, m, z [3]float64) (int, int, int) {
	from, to, f := a, m, t*2
	if t > 0.5 {
		from, to, f = m, z, (t-0.5)*2
	}
	c := func(i int) int { return int(math.Round(from[i] + f*(to[i]-from[i]))) }
	return c(0), c(1), c(2)
}

// AddModel adds a model to the matrix with slowdown 1 against everyone.
func (e *Editor) AddModel(name string) string {
	name = strings.TrimSpace(name)
	if name == "" {
		return "type a model name first"
	}
	if contains(e.MatrixModels(), name) {
		return fmt.Sprintf("%q is already in the matrix", name)
	}
	e.structural(func() {
		models := e.MatrixModels()
		m := matrixValues(e.Tree, len(models))
		models = append(models, name)
		for i := range m {
			m[i] = append(m[i], jsonNumber(1))
		}
		m = append(m, onesRow(len(models)))
		e.setMatrix(models, m)
	})
	return ""
}

// RemoveModel removes row and column i.
func (e *Editor) RemoveModel(i int) {
	e.structural(func() {
		models := e.MatrixModels()
		if i < 0 || i >= len(models) {
			return
		}
		m := matrixValues(e.Tree, len(models))
		models = append(models[:i:i], models[i+1:]...)
		m = append(m[:i:i], m[i+1:]...)
		for r := range m {
			m[r] = append(m[r][:i:i], m[r][i+1:]...)
		}
		e.setMatrix(models, m)
	})
}

// FillMatrix sets every cell to the typed value; it returns a problem in
// words, or "".
func (e *Editor) FillMatrix(text string) string {
	f := &form.Field{Kind: form.Number}
	v, _ := form.Value(f, text)
	x, ok := doc.Num(v, "")
	if !ok || x < 1 || math.IsInf(x, 0) {
		return "enter a slowdown of at least 1, e.g. 1.5"
	}
	e.structural(func() {
		models := e.MatrixModels()
		m := make([][]any, len(models))
		for i := range m {
			m[i] = make([]any, len(models))
			for k := range m[i] {
				m[i][k] = v
			}
		}
		e.setMatrix(models, m)
	})
	return ""
}

// UseWorkloadModels makes the matrix's models those of the job mix,
// keeping the values of pairs it already had.
func (e *Editor) UseWorkloadModels() {
	e.structural(func() {
		old := e.MatrixModels()
		vals := matrixValues(e.Tree, len(old))
		models := e.WorkloadModels()
		m := make([][]any, len(models))
		for i, a := range models {
			m[i] = onesRow(len(models))
			for k, b := range models {
				oi, ok1 := indexOf(old, a)
				ok, ok2 := indexOf(old, b)
				if ok1 && ok2 {
					m[i][k] = vals[oi][ok]
				}
			}
		}
		e.setMatrix(models, m)
	})
}

func indexOf(list []string, s string) (int, bool) {
	for i, x := range list {
		if x == s {
			return i, true
		}
	}
	return 0, false
}

// WorkloadModels lists the models of the job mix or job table.
func (e *Editor) WorkloadModels() []string {
	seen := map[string]bool{}
	var out []string
	add := func(m string) {
		if m != "" && !seen[m] {
			seen[m] = true
			out = append(out, m)
		}
	}
	if e.WorkloadMode() == ModeJobs {
		for _, job := range doc.List(e.Tree, "workload.jobs") {
			add(doc.Str(job, "model"))
		}
	} else {
		switch v := e.Get("workload.generator.models").(type) {
		case []any:
			for i, m := range v {
				if s, ok := m.(string); ok {
					add(s)
				} else {
					add(e.Str(doc.Index("workload.generator.models", i) + ".model"))
				}
			}
		}
		if len(out) == 0 && e.GeneratorKind() == "gavel" {
			for _, t := range workload.GavelZoo {
				add(t.Model)
			}
		}
	}
	if len(out) == 0 {
		out = []string{"resnet50"}
	}
	sort.Strings(out)
	return out
}

// matrixValues reads the matrix, padded or cut to n × n, with 1 where a
// value is missing.
func matrixValues(tree any, n int) [][]any {
	rows := doc.List(tree, interferencePath+".matrix")
	m := make([][]any, n)
	for i := range m {
		m[i] = onesRow(n)
		if i < len(rows) {
			cells, _ := rows[i].([]any)
			for k := 0; k < n && k < len(cells); k++ {
				m[i][k] = cells[k]
			}
		}
	}
	return m
}

func (e *Editor) setMatrix(models []string, m [][]any) {
	rows := make([]any, len(m))
	for i, r := range m {
		rows[i] = r
	}
	if t, err := doc.Set(e.Tree, interferencePath+".models", stringsToList(models)); err == nil {
		e.Tree = t
	}
	if t, err := doc.Set(e.Tree, interferencePath+".matrix", rows); err == nil {
		e.Tree = t
	}
}

func onesRow(n int) []any {
	r := make([]any, n)
	for i := range r {
		r[i] = jsonNumber(1)
	}
	return r
}

func ones(n int) []any {
	rows := make([]any, n)
	for i := range rows {
		rows[i] = onesRow(n)
	}
	return rows
}

func stringsToList(s []string) []any {
	out := make([]any, len(s))
	for i, x := range s {
		out[i] = x
	}
	return out
}

// SharingNote says whether any chosen policy shares GPUs, since only then
// does interference change the results.
func (e *Editor) SharingNote() string {
	sc := e.Scenario()
	if sc == nil {
		return ""
	}
	if sc.Engine.SharingLimit > 1 {
		return ""
	}
	var sharing []string
	for i := range sc.Policies {
		p, err := sc.NewPolicy(i)
		if err == nil && p.Options().MaxJobsPerGPU > 1 {
			sharing = append(sharing, sc.PolicyLabel(i))
		}
	}
	if len(sharing) > 0 {
		return "Policies that share GPUs here: " + strings.Join(sharing, ", ") + "."
	}
	return "None of the chosen policies puts two jobs on one GPU, so interference does not change this comparison; add a policy that shares GPUs to see its effect."
}
