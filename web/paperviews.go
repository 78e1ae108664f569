package web

import (
	"strconv"

	"github.com/schedlab/schedlab/web/app"
)

// OjppGpus is the OJPP per-GPU view in the timeline: memory stacks,
// collision probabilities and who slows whom, at the timeline's time.
type OjppGpus struct {
	App *app.App
}

// Idle reports whether the decision shown left every GPU idle.
func (c *OjppGpus) Idle() bool { v := c.App.OJPP(); return v != nil && v.Empty }

// SegClass marks the peak segment of a memory stack.
func (c *OjppGpus) SegClass(s app.MemSeg) string {
	if s.Peak {
		return "seg peak"
	}
	return "seg"
}

// TesseraeRounds is the Tesserae round view in the timeline: a round
// picker, the GPU maps before and after, the pairs and the counts.
type TesseraeRounds struct {
	App *app.App
}

// Max is the round slider's last position.
func (c *TesseraeRounds) Max() string { return strconv.Itoa(c.App.Rounds().Count - 1) }

// Pos is the round slider's position.
func (c *TesseraeRounds) Pos() string { return strconv.Itoa(max(0, c.App.Rounds().Index)) }

// GPUClass marks packed and idle GPUs of a round map.
func (c *TesseraeRounds) GPUClass(g app.RoundGPU) string {
	switch {
	case g.Packed:
		return "gpu packed"
	case len(g.Jobs) == 0:
		return "gpu free"
	}
	return "gpu"
}

// Moved marks a GPU holding a migrated job (⇆ beside its name).
func (c *TesseraeRounds) Moved(g app.RoundGPU) string {
	for _, j := range g.Jobs {
		if j.Moved {
			return "⇆"
		}
	}
	return ""
}

// New marks, after the round, a GPU holding a started job (+).
func (c *TesseraeRounds) New(g app.RoundGPU, after bool) string {
	for _, j := range g.Jobs {
		if after && j.Start && !j.Moved {
			return "+"
		}
	}
	return ""
}

// ChipClass flags migrated jobs in both maps and started ones after.
func (c *TesseraeRounds) ChipClass(j app.RoundChip, after bool) string {
	switch {
	case j.Moved:
		return "chip moved"
	case after && j.Start:
		return "chip started"
	}
	return "chip"
}

// HiddenText says how many servers the maps leave out.
func (c *TesseraeRounds) HiddenText() string {
	n := c.App.Rounds().Hidden
	if n == 1 {
		return "1 server this round did not change is not drawn."
	}
	return strconv.Itoa(n) + " servers this round did not change are not drawn."
}

// MemshareMatrix edits the memshare model's interference matrix.
type MemshareMatrix struct {
	App *app.App
}
