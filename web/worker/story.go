package worker

import (
	"context"

	"github.com/schedlab/schedlab/sim/engine"
	"github.com/schedlab/schedlab/sim/experiment"
	"github.com/schedlab/schedlab/sim/workload"
	"github.com/schedlab/schedlab/web/protocol"
)

// storyBins puts run k's story notes and placement tables in bin and
// counts them in its timeline.
func storyBins(res *engine.Result, k int, tl *protocol.Timeline, bin map[string][]byte) error {
	tables, err := protocol.EncodeTables(res.Tables)
	if err != nil {
		return err
	}
	bin[protocol.StoryKey(k)] = protocol.EncodeNotes(res.Story)
	bin[protocol.TablesKey(k)] = tables
	tl.Notes, tl.Tables = len(res.Story), len(res.Tables)
	tl.NotesCut, tl.TablesCut = res.Stats.DroppedNotes, res.Stats.DroppedTables
	return nil
}

// story runs one policy again, keeping the records of one job alone (see
// protocol.StoryRequest).
func (h *Handler) story(ctx context.Context, id int, req protocol.StoryRequest) {
	sc, perr := parse("", req.Document)
	if perr != nil {
		h.fail(id, *perr)
		return
	}
	one, err := sc.WithPolicy(req.Policy)
	if err != nil {
		h.fail(id, protocol.Error{Message: err.Error()})
		return
	}
	seed := req.Seed
	if seed == 0 {
		seed = sc.RunSeeds()[0]
	}
	rep, err := experiment.Execute(ctx, one, experiment.Options{Seeds: []uint64{seed}, Stories: true,
		StoryOnly: []workload.JobID{workload.JobID(req.Job)}, StreamAbove: experiment.DefaultStreamAbove})
	if err != nil {
		h.fail(id, protocol.Error{Message: err.Error(), Cancelled: ctx.Err() != nil})
		return
	}
	r := rep.Runs[0]
	if r.Result == nil {
		h.fail(id, protocol.Error{Message: "the run kept no records"})
		return
	}
	bin := map[string][]byte{}
	var tl protocol.Timeline
	if err := storyBins(r.Result, 0, &tl, bin); err != nil {
		h.fail(id, protocol.Error{Message: err.Error()})
		return
	}
	m := protocol.NewMessage(protocol.TypeStoried, id, protocol.Storied{Job: req.Job, Notes: tl.Notes, Tables: tl.Tables, Cut: tl.NotesCut})
	m.Bin = bin
	h.send(m)
}
