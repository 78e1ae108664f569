package protocol

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math"

	"github.com/schedlab/schedlab/sim/cluster"
	"github.com/schedlab/schedlab/sim/story"
	"github.com/schedlab/schedlab/sim/workload"
)

// Stories: a run asked with RunRequest.Stories ships the notes that tell
// its jobs' stories (sim/story) in bin StoryKey(k) and its placement
// tables in bin TablesKey(k), both binary, so that the page decodes the
// notes in a moment and a table only when a story shows it.
//
// A story request asks a worker for one job's whole story, when the run
// it comes from reached the recorder's caps before that job: the worker
// runs the policy again (the same seed gives the same run) keeping the
// records of that job alone.
//
//	{type: "story", id, json: StoryRequest}      tell one job's story
//	{type: "storied", id, json: Storied,         its notes and tables
//	 bin: {"story-0": ..., "tables-0": ...}}
const (
	TypeStory   = "story"
	TypeStoried = "storied"
)

// StoryRequest asks for job Job's records under policy Policy of the
// scenario Document on Seed.
type StoryRequest struct {
	Document string `json:"document"`
	Seed     uint64 `json:"seed"`
	Policy   int    `json:"policy"`
	Job      int    `json:"job"`
}

// Storied answers a StoryRequest: the notes and tables travel in bins
// StoryKey(0) and TablesKey(0).
type Storied struct {
	Job    int   `json:"job"`
	Notes  int   `json:"notes"`
	Tables int   `json:"tables"`
	Cut    int64 `json:"cut,omitempty"` // notes not kept even so
}

// StoryKey and TablesKey are the bin names of run k's story notes and
// placement tables.
func StoryKey(k int) string  { return fmt.Sprintf("story-%d", k) }
func TablesKey(k int) string { return fmt.Sprintf("tables-%d", k) }

// EncodeNotes packs story notes: uvarint count, then per note T as
// float64, Kind as a byte, Job, Other and Table as varints, the GPUs as a
// uvarint count and varints, Need and Free as uvarints, Key and Text as
// uvarint lengths and bytes.
func EncodeNotes(notes []story.Note) []byte {
	b := binary.AppendUvarint(nil, uint64(len(notes)))
	for _, n := range notes {
		b = binary.LittleEndian.AppendUint64(b, math.Float64bits(n.T))
		b = append(b, byte(n.Kind))
		b = binary.AppendVarint(b, int64(n.Job))
		b = binary.AppendVarint(b, int64(n.Other))
		b = binary.AppendVarint(b, int64(n.Table))
		b = binary.AppendUvarint(b, uint64(len(n.GPUs)))
		for _, g := range n.GPUs {
			b = binary.AppendVarint(b, int64(g))
		}
		b = binary.AppendUvarint(b, uint64(max(n.Need, 0)))
		b = binary.AppendUvarint(b, uint64(max(n.Free, 0)))
		for _, s := range []string{n.Key, n.Text} {
			b = binary.AppendUvarint(b, uint64(len(s)))
			b = append(b, s...)
		}
	}
	return b
}

// DecodeNotes unpacks EncodeNotes' bytes.
func DecodeNotes(b []byte) ([]story.Note, error) {
	r := newReader(b)
	n := r.uvarint()
	if n > uint64(len(b)) {
		return nil, fmt.Errorf("protocol: %d story notes cannot fit in %d bytes", n, len(b))
	}
	notes := make([]story.Note, n)
	for i := range notes {
		nt := &notes[i]
		nt.T = r.float()
		if len(r.b) == 0 {
			r.fail()
			break
		}
		nt.Kind = story.Kind(r.b[0])
		r.b = r.b[1:]
		nt.Job, nt.Other, nt.Table = workload.JobID(r.varint()), workload.JobID(r.varint()), int(r.varint())
		if k := r.uvarint(); k > 0 && k <= uint64(len(r.b)) {
			nt.GPUs = make([]cluster.GPUID, k)
			for j := range nt.GPUs {
				nt.GPUs[j] = cluster.GPUID(r.varint())
			}
		} else if k > 0 {
			r.fail()
		}
		nt.Need, nt.Free = int(r.uvarint()), int(r.uvarint())
		nt.Key, nt.Text = r.str(), r.str()
		if r.err != nil {
			break
		}
	}
	if r.err == nil && len(r.b) > 0 {
		return nil, fmt.Errorf("protocol: %d bytes after the story notes", len(r.b))
	}
	return notes, r.err
}

func (r *jobReader) varint() int64 {
	v, n := binary.Varint(r.b)
	if n <= 0 {
		r.fail()
		return 0
	}
	r.b = r.b[n:]
	return v
}

// EncodeTables packs placement tables: uvarint count, then each as a
// uvarint length and its JSON, so that one can be read without the
// others (Tables).
func EncodeTables(tables []story.Placement) ([]byte, error) {
	b := binary.AppendUvarint(nil, uint64(len(tables)))
	for i := range tables {
		data, err := json.Marshal(&tables[i])
		if err != nil {
			return nil, err
		}
		b = binary.AppendUvarint(b, uint64(len(data)))
		b = append(b, data...)
	}
	return b, nil
}

// Tables reads EncodeTables' bytes lazily: it finds where each table is
// once, and decodes one when asked.
type Tables struct {
	b          []byte
	start, end []int // of each table's JSON
}

// NewTables indexes EncodeTables' bytes.
func NewTables(b []byte) (*Tables, error) {
	t := &Tables{b: b}
	if len(b) == 0 {
		return t, nil
	}
	n, k := binary.Uvarint(b)
	if k <= 0 || n > uint64(len(b)) {
		return nil, fmt.Errorf("protocol: the placement tables do not start with their count")
	}
	at := k
	for range n {
		size, k := binary.Uvarint(b[at:])
		if k <= 0 || uint64(len(b)-at-k) < size {
			return nil, fmt.Errorf("protocol: the placement tables end early")
		}
		t.start = append(t.start, at+k)
		at += k + int(size)
		t.end = append(t.end, at)
	}
	if at != len(b) {
		return nil, fmt.Errorf("protocol: %d bytes after the placement tables", len(b)-at)
	}
	return t, nil
}

// Len is the number of tables.
func (t *Tables) Len() int { return len(t.start) }

// Table decodes table i.
func (t *Tables) Table(i int) (*story.Placement, error) {
	if i < 0 || i >= t.Len() {
		return nil, fmt.Errorf("protocol: no placement table %d of %d", i, t.Len())
	}
	var p story.Placement
	if err := json.Unmarshal(t.b[t.start[i]:t.end[i]], &p); err != nil {
		return nil, fmt.Errorf("protocol: placement table %d: %w", i, err)
	}
	return &p, nil
}
