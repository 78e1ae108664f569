package engine

import (
	"strings"
	"testing"
)

// Snapshots are kept only when asked, and stop at the byte cap with a
// note that says when.
func TestSnapshotCaps(t *testing.T) {
	s := &State{res: &Result{}}
	if s.Snapshotting() {
		t.Error("snapshotting without Config.Snapshots")
	}
	if err := s.Snapshot("k", 1); err != nil || len(s.res.Snapshots) != 0 {
		t.Fatalf("kept a snapshot nobody asked for: %v", err)
	}
	s.cfg.Snapshots = true
	if err := s.Snapshot("k", func() {}); err == nil {
		t.Error("a value JSON cannot hold made no error")
	}
	big := strings.Repeat("x", 1<<16)
	for i := 0; i < 100; i++ {
		s.now = float64(i)
		if err := s.Snapshot("k", big); err != nil {
			t.Fatal(err)
		}
	}
	kept := len(s.res.Snapshots)
	if kept == 0 || kept*(1<<16) > MaxSnapshotBytes+(1<<16)+2*kept || s.res.Stats.DroppedSnapshots != int64(100-kept) {
		t.Errorf("kept %d of 100 snapshots of 64 KiB, dropped %d", kept, s.res.Stats.DroppedSnapshots)
	}
	if s.Snapshotting() {
		t.Error("still snapshotting past the cap")
	}
	notes := strings.Join(s.res.Notes(), "; ")
	if !strings.Contains(notes, "snapshots stop at t = ") {
		t.Errorf("notes %q", notes)
	}
}
