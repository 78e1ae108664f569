package engine

import (
	"encoding/json"
	"fmt"
)

// MaxSnapshots and MaxSnapshotBytes bound the snapshots one run keeps
// (their count and their JSON's size, so that a long trace's run still
// crosses to the page in a moment); later ones are counted
// (Stats.DroppedSnapshots), not kept.
const (
	MaxSnapshots     = 4096
	MaxSnapshotBytes = 2 << 20
)

// Snapshot is a policy's structured record of one decision, for the page's
// views (OJPP's per-GPU memory stacks, Tesserae's round maps): Kind names
// its shape, Data is its JSON. Policies record them only when the run asks
// (Config.Snapshots), so batch runs stay small.
type Snapshot struct {
	TimeS float64
	Kind  string
	Data  json.RawMessage
}

// Snapshotting reports whether Snapshot keeps anything, so that a policy
// can skip building one nobody will see.
func (s *State) Snapshotting() bool {
	return s.cfg.Snapshots && !s.cfg.NoLog && !s.snapshotsFull()
}

func (s *State) snapshotsFull() bool {
	return len(s.res.Snapshots) >= MaxSnapshots || s.snapshotBytes >= MaxSnapshotBytes
}

// Snapshot records v (marshalled to JSON; use structs and slices, never
// maps whose order would matter) as a snapshot of kind at the current
// time. Without Config.Snapshots it does nothing.
func (s *State) Snapshot(kind string, v any) error {
	if !s.cfg.Snapshots || s.cfg.NoLog {
		return nil
	}
	if s.snapshotsFull() {
		s.res.Stats.DroppedSnapshots++
		return nil
	}
	data, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("snapshot %s: %w", kind, err)
	}
	s.snapshotBytes += len(data)
	s.res.Stats.SnapshotsUntilS = s.now
	s.res.Snapshots = append(s.res.Snapshots, Snapshot{TimeS: s.now, Kind: kind, Data: data})
	return nil
}
