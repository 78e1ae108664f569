package app

import (
	"fmt"
	"strconv"

	"github.com/schedlab/schedlab/sim/perf"
	"github.com/schedlab/schedlab/web/doc"
	"github.com/schedlab/schedlab/web/form"
)

// The memshare perf model (OJPP) keeps its own interference matrix in
// perf.params: extra run time of a row-type worker per co-located worker
// of the column type (0.18 = 18% slower). The editor shows it as the same
// grid as the engine-wide matrix, starting from the model's defaults.
const memMatrixPath = "perf.params"

// IsMemShare reports whether the scenario uses the memshare perf model,
// whose matrix the interference section then edits.
func (e *Editor) IsMemShare() bool { return e.PerfModel() == "memshare" }

// MemMatrixSet reports whether the scenario writes its memshare matrix
// out (otherwise the model's default matrix applies).
func (e *Editor) MemMatrixSet() bool {
	_, ok := e.Get(memMatrixPath + ".matrix").([]any)
	return ok
}

// MemMatrixModels are the matrix's row and column labels: the scenario's,
// or the defaults'.
func (e *Editor) MemMatrixModels() []string {
	if !e.MemMatrixSet() {
		return perf.DefaultMemShareParams().Models
	}
	var out []string
	for _, v := range doc.List(e.Tree, memMatrixPath+".models") {
		s, _ := v.(string)
		out = append(out, s)
	}
	return out
}

// MemDefaultRow is one row of the default matrix, for reading.
type MemDefaultRow struct {
	Model string
	Cells []string
}

// MemMatrixDefaults is the default matrix as text, shown until the
// learner chooses to edit it.
func (e *Editor) MemMatrixDefaults() []MemDefaultRow {
	p := perf.DefaultMemShareParams()
	out := make([]MemDefaultRow, len(p.Models))
	for i, m := range p.Models {
		out[i].Model = m
		for _, v := range p.Matrix[i] {
			out[i].Cells = append(out[i].Cells, strconv.FormatFloat(v, 'g', -1, 64))
		}
	}
	return out
}

// EditMemMatrix writes the default matrix into the scenario so that its
// cells can be edited.
func (e *Editor) EditMemMatrix() {
	if e.MemMatrixSet() {
		return
	}
	p := perf.DefaultMemShareParams()
	rows := make([]any, len(p.Matrix))
	for i, r := range p.Matrix {
		row := make([]any, len(r))
		for k, v := range r {
			row[k] = jsonNumber(v)
		}
		rows[i] = row
	}
	e.structural(func() {
		if t, err := doc.Set(e.Tree, memMatrixPath+".models", stringsToList(p.Models)); err == nil {
			e.Tree = t
		}
		if t, err := doc.Set(e.Tree, memMatrixPath+".matrix", rows); err == nil {
			e.Tree = t
		}
	})
}

// EditMemMatrix makes the memshare matrix editable.
func (a *App) EditMemMatrix() {
	a.Ed.EditMemMatrix()
	a.save()
}

// MemMatrixRows describe the written-out matrix's inputs.
func (e *Editor) MemMatrixRows() []MatrixRow {
	return cached(e, "memmatrix", func() []MatrixRow {
		if !e.IsMemShare() || !e.MemMatrixSet() {
			return nil
		}
		models := e.MemMatrixModels()
		zero, hundred := 0.0, 100.0
		var rows []MatrixRow
		for i, m := range models {
			mp := doc.Index(memMatrixPath+".models", i)
			row := MatrixRow{Index: i, Model: &form.Field{Path: mp, ID: form.ID(mp), Name: "model", Label: "Model", Kind: form.String}}
			for k := range models {
				p := doc.Index(doc.Index(memMatrixPath+".matrix", i), k)
				row.Cells = append(row.Cells, &form.Field{Path: p, ID: form.ID(p), Name: "slowdown", Kind: form.Number, Min: &zero, Max: &hundred,
					Label: fmt.Sprintf("extra run time of %s next to %s", m, models[k])})
			}
			rows = append(rows, row)
		}
		return rows
	})
}
