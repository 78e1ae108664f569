//go:build !js

package e2e

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// traceCSV is a small Tiresias trace with one job that uses no GPUs.
const traceCSV = "job_id,num_gpu,submit_time,iterations,model_name,duration,interval\n" +
	"0,1,0,606,vgg19,164,30\n1,8,30,133,vgg11,147,23\n2,0,53,157,inception4,127,26\n3,2,79,513,vgg16,121,20\n4,4,99,138,resnet50,321,33\n"

// dropJS drops a file on the page as a user dragging it from their
// desktop does.
func dropJS(name, text string) string {
	return fmt.Sprintf(`(() => {
		const dt = new DataTransfer();
		dt.items.add(new File([%q], %q, {type: "text/csv"}));
		document.dispatchEvent(new DragEvent("dragover", {dataTransfer: dt, bubbles: true, cancelable: true}));
		document.body.dispatchEvent(new DragEvent("drop", {dataTransfer: dt, bubbles: true, cancelable: true}));
	})()`, text, name)
}

// TestTraceDropInBrowser drops a trace CSV on the page: the page imports
// it in WebAssembly, shows the summary and the line-numbered warning,
// runs the scenario, and shows the metrics the command line gives for
// `schedlab import` of the same file.
func TestTraceDropInBrowser(t *testing.T) {
	dir := site(t)
	srv := serve(t, dir)
	ctx, cancel := browser(t, 3*time.Minute)
	defer cancel()
	errs := consoleErrors(ctx)
	p := &page{t: t, ctx: ctx}
	p.do(chromedp.EmulateViewport(1280, 800), chromedp.Navigate(srv.URL+"/"))
	p.started()

	eval[any](p, dropJS("small-trace.csv", traceCSV))
	p.wait(`!!document.getElementById("trace-summary")`, `(document.getElementById("trace-import") || {textContent: "no panel"}).textContent`, 10*time.Second)
	if got := p.text("trace-summary"); got != "tiresias: 5 rows read, 4 jobs kept; 1 using no GPUs (1 warning)" {
		t.Errorf("summary %q", got)
	}
	if got := eval[string](p, `document.querySelector("#trace-warnings li").textContent`); got != "line 4: job job2 uses 0 GPUs; left out" {
		t.Errorf("warning %q", got)
	}
	p.click("tab-results")
	p.wait(`!document.getElementById("cancel") && !!document.getElementById("metrics") && document.querySelectorAll("#metrics tbody tr").length === 3`, statusJS, 60*time.Second)
	got := p.metrics()

	// The command line imports and runs the same file.
	file := filepath.Join(t.TempDir(), "small-trace.csv")
	if err := os.WriteFile(file, []byte(traceCSV), 0o644); err != nil {
		t.Fatal(err)
	}
	scen := filepath.Join(t.TempDir(), "small-trace.json")
	if out, err := exec.Command(cli(t), "import", "tiresias", file, "--name", "small-trace", "--out", scen).CombinedOutput(); err != nil {
		t.Fatalf("schedlab import: %v\n%s", err, out)
	}
	want := cliMetrics(t, scen)
	for _, r := range want {
		if len(got[r.Policy]) == 0 {
			t.Errorf("the page shows no %s row: %v", r.Policy, got)
		}
	}
	compareMetrics(t, got, want)
	p.click("tab-scenario")
	p.shot("trace-import", 1280, 800)
	p.shot("trace-import", 390, 844)

	// The panel's two adaptations: only jobs of at most 2 GPUs, all at
	// time 0, as a student preparing a trace for SJF-BCO does.
	p.setValue("trace-max-gpus", "2")
	p.click("trace-at-zero")
	p.click("trace-reimport")
	p.wait(`(document.getElementById("trace-summary") || {textContent: ""}).textContent.includes("2 jobs kept")`, `(document.getElementById("trace-import") || {textContent: "no panel"}).textContent`, 10*time.Second)
	if notes := eval[string](p, `document.querySelector(".tracenotes").textContent`); !strings.Contains(notes, "every job is submitted at time 0 (Every job at time 0)") {
		t.Errorf("notes %q lack the time-0 note", notes)
	}
	p.shot("trace-import-adapted", 1280, 800)
	p.shot("trace-import-adapted", 390, 844)

	// A broken trace is refused with its line.
	eval[any](p, dropJS("broken.csv", "job_id,num_gpu,submit_time,duration\n1,one,0,100\n"))
	p.wait(`(document.getElementById("trace-error") || {textContent: ""}).textContent.includes("line 2: column num_gpu")`, `(document.getElementById("trace-import") || {textContent: "no panel"}).textContent`, 10*time.Second)
	if e := errs(); len(e) > 0 {
		t.Errorf("console errors: %v", e)
	}
}
