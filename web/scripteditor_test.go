package web

import (
	"testing"

	"github.com/schedlab/schedlab/web/app"
	"github.com/schedlab/schedlab/web/app/apptest"
)

// A script policy's card renders its editor (a plain text area where the
// code editor's script is absent, as in this static render), the examples
// menu, the check button, the mistake under the editor, the fields a
// script reads, and a check's failures with the case to open.
func TestScriptEditorRenders(t *testing.T) {
	b := apptest.New(t)
	a := app.New(b)
	a.AddPolicy(app.ScriptPolicy)
	a.SetTab(app.TabScenario)
	c := a.Ed.PolicyCards()[2]
	page := render(t, a)
	mustContain(t, page, `id="f-policies-2-params-source"`, `class="script-plain"`, `id="script-examples-2"`, `id="script-check-2"`,
		"Check my policy", "What a script sees", "job.attained_gpu_s", "state.free_gpus", "math.log", "restart_s",
		`<option value="srgt">`, `id="f-policies-2-params-oracle"`)
	a.SetText(app.ScriptField(c), "def priority(job, now):\n    return job.sollo_s\n")
	page = render(t, a)
	mustContain(t, page, `id="e-policies-2-params-source"`, "did you mean .solo_s?", `aria-invalid="true"`)
	a.SetText(app.ScriptField(c), "def decide(state):\n    return {'start': [j for j in state.pending if j.arrival_s < 1000]}\n")
	a.CheckScript(c.Index)
	b.Pump(a, func() bool { ch := a.ScriptCheckOf(c); return ch != nil && !ch.Running })
	page = render(t, a)
	mustContain(t, page, "made-up scenarios", "seed ", "Open this case", "the policy starts none of them")
}
