package app

import (
	"github.com/schedlab/schedlab/web/form"
)

// The App's editing methods apply one change to the editor and save the
// scenario, so that nothing typed is lost on a reload.

// SetText stores what was typed into a field.
func (a *App) SetText(f *form.Field, text string) {
	a.Ed.SetText(f, text)
	a.save()
}

// SetBool stores a check box.
func (a *App) SetBool(f *form.Field, on bool) {
	a.Ed.SetValue(f.Path, on)
	a.save()
}

// AddRow appends a row to a table.
func (a *App) AddRow(t *form.Table) {
	a.Ed.AddRow(t.Path, t.Template)
	a.save()
}

// RemoveRow removes row i of the list at path.
func (a *App) RemoveRow(path string, i int) {
	a.Ed.RemoveRow(path, i)
	a.save()
}

// AddJob appends a job to the job table.
func (a *App) AddJob() {
	a.Ed.AddJob()
	a.save()
}

// SortJobs sorts the job table by a column.
func (a *App) SortJobs(col string) {
	a.Ed.SortJobs(col)
	a.save()
}

// SetWorkloadMode switches between a generator and a job table.
func (a *App) SetWorkloadMode(mode string) {
	if msg := a.Ed.SetWorkloadMode(mode); msg != "" {
		a.setNotice("Could not switch to a job table: "+msg+".", true)
		return
	}
	a.save()
}

// SetGeneratorKind switches the generator.
func (a *App) SetGeneratorKind(kind string) {
	a.Ed.SetGeneratorKind(kind)
	a.save()
}

// SetPerfModel switches the base perf model; its parameters go aside.
func (a *App) SetPerfModel(model string) {
	if model == a.Ed.PerfModel() {
		return
	}
	a.Ed.structural(func() {
		if v := a.Ed.Get("perf.params"); v != nil {
			a.Ed.Stash["perf:"+a.Ed.PerfModel()] = v
		}
		a.Ed.SetValue("perf.params", a.Ed.Stash["perf:"+model])
		a.Ed.SetValue("perf.model", model)
	})
	a.save()
}

// AddPolicy adds a policy by name.
func (a *App) AddPolicy(name string) {
	a.Ed.AddPolicy(name)
	a.save()
}

// RemovePolicy removes policy i.
func (a *App) RemovePolicy(i int) {
	a.Ed.RemovePolicy(i)
	a.save()
}

// MovePolicy moves policy i by d places.
func (a *App) MovePolicy(i, d int) {
	a.Ed.MovePolicy(i, d)
	a.save()
}

// SetInterferenceMode switches how sharing slows jobs down.
func (a *App) SetInterferenceMode(mode string) {
	a.Ed.SetInterferenceMode(mode)
	a.save()
}

// AddModel adds a model to the interference matrix.
func (a *App) AddModel() {
	if msg := a.Ed.AddModel(a.Ed.NewModel); msg != "" {
		a.Ed.ModelErr = msg
		return
	}
	a.Ed.NewModel, a.Ed.ModelErr = "", ""
	a.save()
}

// RemoveModel removes a model from the interference matrix.
func (a *App) RemoveModel(i int) {
	a.Ed.RemoveModel(i)
	a.save()
}

// FillMatrix sets every matrix cell to the fill value.
func (a *App) FillMatrix() {
	a.Ed.FillErr = a.Ed.FillMatrix(a.Ed.FillValue)
	if a.Ed.FillErr == "" {
		a.save()
	}
}

// UseWorkloadModels makes the matrix's models those of the job mix.
func (a *App) UseWorkloadModels() {
	a.Ed.UseWorkloadModels()
	a.save()
}
