package app

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"

	"github.com/schedlab/schedlab/web/protocol"
)

// Build-time results: the page needs its engine (megabytes to download and
// compile) before it can show any result, which kept a newcomer waiting on
// a spinner. So when the site is built, the default scenario is run once
// by this same page logic and engine (natively, see web/prebuild), and
// the workers' replies are kept in a file, a Preview. The page shows them
// at once, labelled as computed when the site was built, while its own
// engine starts and runs the same scenario; the live results then take
// their place and are compared with them (they must be identical: one
// seed gives bit-identical results natively and in WebAssembly).

// Check values of Results.Check.
const (
	CheckSame    = "same"
	CheckDiffers = "differs"
)

// typePreview is the first message of a preview: its JSON is a
// previewHead.
const typePreview = "preview"

// previewHead says which run a preview is of.
type previewHead struct {
	Doc   string  `json:"doc"`
	Seed  uint64  `json:"seed"`
	Width float64 `json:"width"` // App.figureWidth when drawn
}

// Record makes the App keep its workers' result and draw replies, so that
// Preview can save them. The page never records.
func (a *App) Record() { a.record = true }

// Preview returns the finished run's results as the workers sent them:
// a protocol bundle of a head, each policy's result and the draw reply.
func (a *App) Preview() ([]byte, error) {
	r, res := a.Run, a.Res
	if !a.record || r == nil || r.State != RunDone || res == nil || res.RunID != r.ID || res.CDF.Pending {
		return nil, errors.New("no finished run with its figures drawn was recorded")
	}
	if res.drawn.Type != protocol.TypeDrawn {
		return nil, fmt.Errorf("drawing the figures failed: %s", res.CDF.Err)
	}
	ms := []protocol.Message{protocol.NewMessage(typePreview, 0, previewHead{Doc: r.Doc, Seed: r.Seed, Width: a.figureWidth()})}
	for _, p := range r.Parts {
		if p.msg.Type != protocol.TypeResult {
			return nil, fmt.Errorf("%s: no result recorded", p.Label)
		}
		ms = append(ms, p.msg)
	}
	return protocol.EncodeBundle(append(ms, res.drawn)), nil
}

// ShowPreview shows a Preview when it is of the run now starting (the
// same scenario, seed and figure width) and no results are on show yet;
// it reports whether it did. A preview that cannot be read is an error.
func (a *App) ShowPreview(data []byte) (bool, error) {
	ms, err := protocol.DecodeBundle(data)
	if err != nil {
		return false, err
	}
	var head previewHead
	if len(ms) < 2 || ms[0].Type != typePreview || json.Unmarshal(ms[0].JSON, &head) != nil {
		return false, errors.New("not a preview of results")
	}
	r := a.Run
	if r == nil || r.State != RunRunning || a.Res != nil || r.Doc != head.Doc || r.Seed != head.Seed ||
		!servesWidth(head.Width, a.figureWidth()) || len(ms) != len(r.Parts)+2 {
		return false, nil
	}
	built := &Run{ID: r.ID, Doc: r.Doc, Seed: r.Seed}
	for i, p := range r.Parts {
		q := &Part{Index: p.Index, Label: p.Label, Name: p.Name, State: PartDone}
		if q.Result, err = a.policyResult(q, ms[i+1]); err != nil {
			return false, fmt.Errorf("%s: %w", p.Label, err)
		}
		built.Parts = append(built.Parts, q)
	}
	res, _, err := a.newResults(built)
	if err != nil {
		return false, err
	}
	res.Built, res.builtWidth = true, head.Width
	a.applyDrawn(res, ms[len(ms)-1])
	a.showResults(res)
	a.setNotice("", false) // the results view says where they come from
	return true, nil
}

// servesWidth says whether figures drawn at width built (inches, 0 for
// the engine's default) serve a page that draws them at width page: the
// same width, or both narrow and within an inch of each other: the build
// draws a phone's at 390 px (3.56 inches), which serves screens of 320 to
// about 490 px (3.4 to 4.56 inches), scaled by the browser until the
// page's own run's figures take their place. A desktop's figures would
// shrink to half on a phone, their labels too small to read.
func servesWidth(built, page float64) bool {
	return built == page || built > 0 && page > 0 && math.Abs(built-page) <= 1
}

// replaceBuilt puts the live results res in place of the build-time ones,
// after comparing the two: a difference is a bug (of determinism, or a
// site built from other code), reported to the developer's console. The
// figures are compared only when the live ones were drawn at the width the
// built ones were (the page may have been resized during the run), and
// drawn at all: a figure that could not be drawn (its fonts not fetched)
// says so in its own place.
func (a *App) replaceBuilt(built, res *Results, sameWidth bool) {
	res.Check = CheckSame
	if d := built.differs(res, sameWidth && res.allDrawn()); d != "" {
		res.Check = CheckDiffers
		a.P.Report("the results computed when the site was built differ from this browser's run of the same scenario: " + d)
	}
	a.showResults(res)
	if res.Check == CheckSame {
		a.setNotice(a.Notice+" They are the same as the results computed when the site was built.", false)
	}
}

// drawnAtBuiltWidth says whether every figure of run r (its Gantt charts,
// and the figures spanning policies, drawn at width) was drawn at the
// build-time results' width.
func drawnAtBuiltWidth(r *Run, width, built float64) bool {
	if width != built {
		return false
	}
	for _, p := range r.Parts {
		if p.width != built {
			return false
		}
	}
	return true
}

// differs names the first difference between two results of one run, or
// returns "". Figures (PNGs) are compared only when figures is set.
func (res *Results) differs(o *Results, figures bool) string {
	if len(res.Policies) != len(o.Policies) {
		return fmt.Sprintf("%d policies against %d", len(res.Policies), len(o.Policies))
	}
	for i, p := range res.Policies {
		q := o.Policies[i]
		tl1, _ := json.Marshal(p.Timeline)
		tl2, _ := json.Marshal(q.Timeline)
		switch {
		case !bytes.Equal(p.Raw, q.Raw):
			return p.Label + ": the outputs differ"
		case figures && !bytes.Equal(figurePNG(p.Gantt), figurePNG(q.Gantt)):
			return p.Label + ": the Gantt charts differ"
		case !bytes.Equal(protocol.EncodeIntervals(p.Intervals), protocol.EncodeIntervals(q.Intervals)):
			return p.Label + ": the GPU intervals differ"
		case !bytes.Equal(tl1, tl2):
			return p.Label + ": the decision logs differ"
		}
	}
	if !figures {
		return ""
	}
	f1, f2 := res.Figures(), o.Figures()
	if len(f1) != len(f2) {
		return fmt.Sprintf("%d figures against %d", len(f1), len(f2))
	}
	for i, f := range f1 {
		if f.Name != f2[i].Name || !bytes.Equal(f.PNG, f2[i].PNG) {
			return "the figure " + f.Name + " differs"
		}
	}
	return ""
}

// allDrawn says whether every figure of res was drawn (none holds an
// error instead).
func (res *Results) allDrawn() bool {
	for _, f := range res.Figures() {
		if f.Err != "" {
			return false
		}
	}
	return true
}

func figurePNG(f *Figure) []byte {
	if f == nil {
		return nil
	}
	return f.PNG
}

// CheckOf is res.Check, or "" for no results.
func (res *Results) CheckOf() string {
	if res == nil {
		return ""
	}
	return res.Check
}
