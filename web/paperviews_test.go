package web

import (
	"regexp"
	"strconv"
	"testing"

	"github.com/schedlab/schedlab/web/app"
	"github.com/schedlab/schedlab/web/app/apptest"
	"github.com/schedlab/schedlab/web/form"
)

// resnetSlowdown reads ResNet's slowdown from the rendered OJPP view.
var resnetSlowdown = regexp.MustCompile(`>resnet</span>\s*<span class="muted">ResNet</span></th>\s*<td class="num ojpp-slow">([0-9.]+)<`)

// The OJPP view renders the run's per-GPU snapshot, and the memshare
// matrix the interference section edits drives it: ResNet's slowdown under
// best-fit drops by exactly the edit of its VGG19 cell.
func TestOJPPViewRenders(t *testing.T) {
	b := apptest.New(t)
	a := app.New(b)
	a.Open("ojpp-fig4")
	b.Pump(a, apptest.Done(a))
	a.SetTab(app.TabTimeline)
	a.TLSelect(0) // best-fit
	page := render(t, a)
	mustContain(t, page, `id="ojpp-view"`, `class="membar" role="img" aria-label="s0/g`, `class="seg peak"`, "vgg19 +1.22", "alexnet +0.73")
	m := resnetSlowdown.FindStringSubmatch(page)
	if m == nil {
		t.Fatal("no ResNet worker in the OJPP view")
	}
	before, _ := strconv.ParseFloat(m[1], 64)

	a.SetTab(app.TabScenario)
	page = render(t, a)
	mustContain(t, page, `id="memshare-matrix"`, `id="memshare-default"`, `id="memshare-edit"`, "OJPP memory-sharing matrix of 6 models")
	a.EditMemMatrix()
	var cell *form.Field
	for _, r := range a.Ed.MemMatrixRows() {
		for k, c := range r.Cells {
			if a.Ed.MemMatrixModels()[r.Index] == "ResNet" && a.Ed.MemMatrixModels()[k] == "VGG19" {
				cell = c
			}
		}
	}
	if cell == nil {
		t.Fatal("no ResNet-VGG19 cell")
	}
	a.SetText(cell, "0.5")
	a.StartRun()
	b.Pump(a, apptest.Done(a))
	a.SetTab(app.TabTimeline)
	a.TLSelect(0)
	page = render(t, a)
	mustContain(t, page, "vgg19 +0.50")
	m = resnetSlowdown.FindStringSubmatch(page)
	if m == nil {
		t.Fatal("no ResNet worker after the edit")
	}
	after, _ := strconv.ParseFloat(m[1], 64)
	if d := before - after; d < 0.719 || d > 0.721 {
		t.Errorf("ResNet's slowdown went from %.3f to %.3f, want 0.72 less", before, after)
	}
}

// The Tesserae round view renders a round that migrates jobs: the moved
// chip is flagged in both maps with words for screen readers, the pairs
// table carries the matching's weights, and picking a round moves the
// timeline to it.
func TestRoundViewRenders(t *testing.T) {
	b := apptest.New(t)
	a := app.New(b)
	a.Open("tesserae-fig11-migrations")
	b.Pump(a, apptest.Done(a))
	a.SetTab(app.TabTimeline)
	a.TLSelect(0) // Tesserae
	a.TL.T = 0
	a.TLRound(1)
	moved, paired := false, false
	for range 2000 {
		r := a.Rounds()
		if r == nil {
			t.Fatal("no round view for a Tesserae run")
		}
		page := render(t, a)
		if !moved && regexp.MustCompile(`id="round-after"[\s\S]*class="chip moved"`).MatchString(page) {
			moved = true
			mustContain(t, page, `id="round-before"`, "(migrated this round)", `id="round-counts"`, "migration")
		}
		if !paired && len(r.Pairs) > 0 {
			paired = true
			mustContain(t, page, `id="round-pairs"`, `class="gpu packed"`)
			if w, err := strconv.ParseFloat(r.Pairs[0].Combined, 64); err != nil || !(w > 0) {
				t.Errorf("pair weight %q", r.Pairs[0].Combined)
			}
		}
		if moved && paired || r.Index+1 >= r.Count {
			break
		}
		before := a.TL.T
		a.TLRound(1)
		if a.TL.T <= before {
			t.Fatalf("the next round did not move the timeline forward (%v → %v)", before, a.TL.T)
		}
	}
	if !moved || !paired {
		t.Errorf("over the run's rounds: a migration flagged %v, pairs shown %v", moved, paired)
	}
	// The maps draw only the servers the round changed, unless asked.
	servers := len(a.Res.Cluster.Servers)
	if r := a.Rounds(); r.Hidden == 0 || len(r.After)+r.Hidden != servers {
		t.Errorf("changed servers only: %d drawn, %d hidden, of %d", len(r.After), r.Hidden, servers)
	}
	a.SetAllServers(true)
	if r := a.Rounds(); r.Hidden != 0 || len(r.Before) != servers || len(r.After) != servers {
		t.Errorf("every server: %d and %d drawn, %d hidden, of %d", len(r.Before), len(r.After), r.Hidden, servers)
	}
}
