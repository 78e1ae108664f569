package engine

import (
	"fmt"
	"testing"

	"github.com/schedlab/schedlab/sim/workload"
)

// The chunked decision log gives back every entry, in order, across the
// chunks' growing sizes (64, 128, ... 4,096 entries), and nil when empty.
func TestDecisionLogKeepsOrder(t *testing.T) {
	var l decisionLog
	if l.entries() != nil {
		t.Fatal("an empty log gives entries")
	}
	const n = 64 + 128 + 256 + 512 + 1024 + 2048 + 4096 + 4096 + 7
	for i := range n {
		l.add(Decision{TimeS: float64(i) / 2, Job: workload.JobID(n - i)})
	}
	got := l.entries()
	if len(got) != n || l.n != n {
		t.Fatalf("%d entries (count %d), want %d", len(got), l.n, n)
	}
	for i, d := range got {
		if d.TimeS != float64(i)/2 || d.Job != workload.JobID(n-i) {
			t.Fatalf("entry %d is (%v, %d), want (%v, %d)", i, d.TimeS, d.Job, float64(i)/2, n-i)
		}
	}
	if c := cap(l.chunks[len(l.chunks)-1]); c != 4096 {
		t.Errorf("the last chunk holds %d entries, want the largest size, 4096", c)
	}
}

// A log whose first chunk holds every entry (a run of as many jobs as
// entries) is the result's log as it is, not a copy; one entry more goes
// into a chunk of 128 (the sizes of later chunks double up to 4,096)
// and the entries are copied out in order.
func TestDecisionLogFirstChunk(t *testing.T) {
	for _, n := range []int{1000, 1001} {
		l := decisionLog{first: 1000}
		for i := range n {
			l.add(Decision{TimeS: float64(i)})
		}
		got := l.entries()
		if len(got) != n || cap(got) != n {
			t.Fatalf("%d entries: got %d (capacity %d)", n, len(got), cap(got))
		}
		for i, d := range got {
			if d.TimeS != float64(i) {
				t.Fatalf("%d entries: entry %d has time %v", n, i, d.TimeS)
			}
		}
		copied := &got[0] != &l.chunks[0][0]
		if wantChunks := 1 + n/1001; len(l.chunks) != wantChunks || copied != (n > 1000) {
			t.Errorf("%d entries: %d chunks (want %d), copied %v", n, len(l.chunks), wantChunks, copied)
		}
		if n > 1000 && cap(l.chunks[1]) != 128 {
			t.Errorf("the second chunk holds %d entries, want 128", cap(l.chunks[1]))
		}
	}
}

// noteText writes a note as a policy's NoteWriter would.
type noteText struct{ prefix string }

func (w noteText) NoteText(job workload.JobID, n *Note) string {
	return fmt.Sprintf("%s job %d: %s %g %g %d %d %d", w.prefix, job, n.Name, n.X, n.Y, n.I, n.J, n.K)
}

// Each way of logging gives its text when read: a format is filled then,
// with the arguments it was logged with (even when the caller changes
// its slice of them), unless one of them could change (a slice), which
// is formatted at once; "%%" alone is a format; an empty format is no
// text; functions and notes write theirs.
func TestDecisionTexts(t *testing.T) {
	s := &State{maxLog: 100}
	args := []any{"a", 2, 1.5}
	s.logf(1, "%s=%d (%g)", args...)
	args[0] = "changed"
	shared := []int{1, 2}
	s.logf(2, "list %v", shared)
	shared[0] = 9
	s.logf(3, "100%%")
	s.logf(4, "")
	none := "" // a variable, as vet refuses arguments to a constant empty format
	s.logf(5, none, shared)
	s.logFunc(6, func() string { return "from a function" })
	s.logNote(7, noteText{"started"}, Note{Name: "j7", X: 0.25, Y: -3, I: 4, J: 5, K: -6})
	s.logNote(-1, noteText{"woke"}, Note{})
	s.logf(8, "plain text")
	five := []any{1, 2, 3, 4, 5} // more than a note's room for arguments
	s.logf(9, "%d%d%d%d%d", five...)
	five[4] = 0
	want := []string{"a=2 (1.5)", "list [1 2]", "100%", "", "%!(EXTRA []int=[9 2])", "from a function",
		"started job 7: j7 0.25 -3 4 5 -6", "woke job -1:  0 0 0 0 0", "plain text", "12345"}
	got := s.log.entries()
	if len(got) != len(want) {
		t.Fatalf("%d entries, want %d", len(got), len(want))
	}
	for i := range got {
		if m := got[i].Msg(); m != want[i] {
			t.Errorf("entry %d: %q, want %q", i, m, want[i])
		}
	}
}
