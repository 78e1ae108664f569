package web

import (
	"encoding/json"
	"regexp"
	"testing"

	"github.com/schedlab/schedlab/web/app"
	"github.com/schedlab/schedlab/web/app/apptest"
)

// TestNoticesBesideFields: a generator making jobs bigger than the
// cluster and a short model name near a known one show as notices beside
// their fields, in words, and Run stays enabled; the results list them.
func TestNoticesBesideFields(t *testing.T) {
	b := apptest.New(t)
	a := app.New(b)
	a.Start()
	b.Pump(a, apptest.Done(a))
	a.SetTab(app.TabScenario)
	a.Ed.SetValue("cluster.servers[0].count", json.Number("1"))
	a.Ed.SetValue("workload.generator.models[0].model", "bet")
	page := render(t, a)
	if runDisabled(page) {
		t.Errorf("Run is disabled by notices: %v", a.Ed.Problems)
	}
	gen := regexp.MustCompile(`<div class="warn" id="notice-generator">This generator makes (\d+) of 30 jobs \(seed 1\) bigger than the cluster, up to 8 GPUs where it has 4:`)
	if gen.FindStringSubmatch(page) == nil {
		t.Errorf("no notice beside the generator: %v", a.Ed.Notices)
	}
	field := regexp.MustCompile(`<input[^>]*id="f-workload-generator-models-0-model"[^>]*>\s*<div class="err" id="e-workload-generator-models-0-model"></div>\s*<div class="warn">&#34;bet&#34; is not a known model; did you mean &#34;bert&#34;\?`)
	if field.FindString(page) == "" {
		t.Errorf("no notice beside the model field: %v", a.Ed.Notices)
	}

	// The results say why a job did not finish.
	a.RunAndShow()
	b.Pump(a, apptest.Done(a))
	page = render(t, a)
	mustContain(t, page, `<ul class="notices" id="results-notices"><li class="warn">Jobs › generator › model 1 › Model: &#34;bet&#34; is not a known model`,
		`<li class="warn">The generator makes 1 of 30 jobs (seed 1) bigger than the cluster`, ">29 of 30</td>")
}
