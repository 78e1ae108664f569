package app

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/schedlab/schedlab/sim/cluster"
	"github.com/schedlab/schedlab/sim/results"
	"github.com/schedlab/schedlab/sim/story"
	"github.com/schedlab/schedlab/sim/workload"
	"github.com/schedlab/schedlab/web/protocol"
)

// Job stories: clicking a job (in the Gantt chart, the timeline's grid,
// its queue or the jobs table) opens its story beside the page: it
// arrived, waited because of what and behind whom, started where and why
// there, was preempted or moved and by whom, finished. The records come
// with each run (protocol.RunRequest.Stories); they are decoded the first
// time a story of the run is opened.

// storyData is what a run shipped for its jobs' stories.
type storyData struct {
	bin, tablesBin      []byte
	notesCut, tablesCut int64
	decoded             bool
	err                 string
	notes               []story.Note
	tables              *protocol.Tables
	index               *story.Index
}

// takeStory keeps a run's story records from its result message.
func (p *PolicyResult) takeStory(tl protocol.Timeline, bin map[string][]byte) {
	p.story = storyData{bin: bin[protocol.StoryKey(0)], tablesBin: bin[protocol.TablesKey(0)], notesCut: tl.NotesCut, tablesCut: tl.TablesCut}
}

// HasStories reports whether the run shipped its jobs' stories.
func (p *PolicyResult) HasStories() bool { return p.story.bin != nil }

// storyIndex decodes the run's story records once and indexes them.
func (p *PolicyResult) storyIndex(c *cluster.Cluster) (*story.Index, error) {
	d := &p.story
	if !d.decoded {
		d.decoded = true
		var err error
		if d.bin != nil {
			if d.notes, err = protocol.DecodeNotes(d.bin); err == nil {
				d.tables, err = protocol.NewTables(d.tablesBin)
			}
		}
		if err != nil {
			d.err = "the run's records could not be read: " + err.Error()
		} else {
			d.index = story.NewIndex(p.storyInput(c, d.notes))
		}
	}
	if d.err != "" {
		return nil, fmt.Errorf("%s", d.err)
	}
	return d.index, nil
}

// storyInput is the run as its stories read it, with these notes.
func (p *PolicyResult) storyInput(c *cluster.Cluster, notes []story.Note) story.Input {
	in := story.Input{Notes: notes, Cut: p.story.notesCut > 0, NoNotes: p.story.bin == nil}
	if c != nil {
		in.NumGPUs = c.NumGPUs()
		in.GPUName = func(g cluster.GPUID) string {
			if int(g) < len(c.GPUs) && g >= 0 {
				return fmt.Sprintf("s%d/g%d", c.GPUs[g].Server, c.GPUs[g].Slot)
			}
			return fmt.Sprintf("GPU %d", g)
		}
	}
	in.Jobs = make([]story.Job, len(p.Out.Jobs))
	for i, j := range p.Out.Jobs {
		sj := story.Job{Name: j.ID, Model: j.Model, GPUs: j.GPUs, ArrivalS: j.ArrivalS, StartS: -1, FinishS: -1,
			Unschedulable: j.Status == "unschedulable", Reason: j.Reason, Preemptions: j.Preemptions, Migrations: j.Migrations}
		if j.StartS != nil {
			sj.StartS = *j.StartS
		}
		if j.FinishS != nil {
			sj.FinishS = *j.FinishS
		}
		in.Jobs[i] = sj
	}
	in.Log = make([]story.LogEntry, len(p.Timeline.Log))
	for i, e := range p.Timeline.Log {
		in.Log[i] = story.LogEntry{T: e.T, Job: workload.JobID(e.Job), Msg: e.Msg}
	}
	in.Intervals = make([]story.Interval, len(p.Intervals))
	for i, iv := range p.Intervals {
		in.Intervals[i] = story.Interval{GPU: cluster.GPUID(iv.GPU), Job: workload.JobID(iv.Job), StartS: iv.StartS, EndS: iv.EndS}
	}
	return in
}

// StoryState is the story on show.
type StoryState struct {
	RunID  int // the results it belongs to
	Policy int // index into the results' policies
	Job    int // index into the run's jobs
	// Full holds one job's whole story, asked for again because the run's
	// records stopped before it (see AskFullStory).
	full    *story.Index
	fullTab *protocol.Tables
	Asking  bool
	Err     string
	// Open is the table the student opened, by step index (-1: none).
	Open int
	// back lists the stories opened before this one, to go back to.
	back [][2]int
}

// OpenStory shows the story of job (an index into the run's jobs) under
// policy (an index into the results' policies).
func (a *App) OpenStory(policy, job int) {
	if a.Res == nil || policy < 0 || policy >= len(a.Res.Policies) || job < 0 || job >= len(a.Res.Policies[policy].Out.Jobs) {
		return
	}
	var back [][2]int
	if s := a.Story; s != nil && s.RunID == a.Res.RunID {
		back = append(s.back, [2]int{s.Policy, s.Job})
	}
	a.Story = &StoryState{RunID: a.Res.RunID, Policy: policy, Job: job, Open: -1, back: back}
	a.P.Focus("story-title")
}

// OpenStoryNamed shows the story of the job named name under policy, and
// reports whether there is one.
func (a *App) OpenStoryNamed(policy int, name string) bool {
	if a.Res == nil || policy < 0 || policy >= len(a.Res.Policies) {
		return false
	}
	name = strings.TrimSpace(name)
	for i, j := range a.Res.Policies[policy].Out.Jobs {
		if strings.EqualFold(j.ID, name) {
			a.OpenStory(policy, i)
			return true
		}
	}
	return false
}

// StoryBack shows the story opened before this one.
func (a *App) StoryBack() {
	s := a.Story
	if s == nil || len(s.back) == 0 {
		return
	}
	prev := s.back[len(s.back)-1]
	a.Story = &StoryState{RunID: s.RunID, Policy: prev[0], Job: prev[1], Open: -1, back: s.back[:len(s.back)-1]}
	a.P.Focus("story-title")
}

// CloseStory closes the story.
func (a *App) CloseStory() { a.Story = nil }

// StoryRun is the run of the story on show, nil when none (or when the
// results it belongs to were replaced).
func (a *App) StoryRun() *PolicyResult {
	s := a.Story
	if s == nil || a.Res == nil || s.RunID != a.Res.RunID || s.Policy >= len(a.Res.Policies) {
		return nil
	}
	return a.Res.Policies[s.Policy]
}

// StoryView is a story as the page shows it.
type StoryView struct {
	Title   string // "j12 under FIFO (strict)"
	Summary string
	Style   string // the job's colour
	Steps   []StepView
	Missing string
	// CanAsk offers to run the policy again for this job's whole story.
	CanAsk  bool
	Asking  bool
	Err     string
	HasBack bool
}

// StepView is one step of a story.
type StepView struct {
	Index int
	Time  string
	Kind  string
	Text  string
	Jobs  []JobLink
	// HasTable says the step has a placement table; Table is it when
	// the student opened it.
	HasTable bool
	Open     bool
	Table    *TableView
}

// JobLink names another job the step is about.
type JobLink struct {
	Name  string
	Index int
	Style string
}

// Story returns the story on show, nil when none.
func (a *App) StoryShown() *StoryView {
	s, p := a.Story, a.StoryRun()
	if p == nil {
		return nil
	}
	j := p.Out.Jobs[s.Job]
	v := &StoryView{Title: fmt.Sprintf("%s under %s", j.ID, p.Label), Style: p.jobStyle(s.Job), Asking: s.Asking, Err: s.Err, HasBack: len(s.back) > 0}
	x, tables, err := a.storySource(p)
	if err != nil {
		v.Err = err.Error()
		return v
	}
	st := x.Story(workload.JobID(s.Job))
	v.Summary, v.Missing = st.Summary, st.Missing
	for i, step := range st.Steps {
		sv := StepView{Index: i, Time: results.Duration(step.T), Kind: step.Kind, Text: step.Text, HasTable: step.Table >= 0, Open: s.Open == i}
		for _, o := range step.Jobs {
			if int(o) < len(p.Out.Jobs) && o >= 0 {
				sv.Jobs = append(sv.Jobs, JobLink{Name: p.Out.Jobs[o].ID, Index: int(o), Style: p.jobStyle(int(o))})
			}
		}
		if sv.Open && sv.HasTable {
			sv.Table = a.tableView(p, tables, step.Table)
		}
		v.Steps = append(v.Steps, sv)
	}
	v.CanAsk = s.full == nil && (p.story.notesCut > 0 || p.story.tablesCut > 0) && !storyHasTables(st) && j.StartS != nil
	if v.CanAsk && v.Missing == "" {
		v.Missing = "The run kept the tables of candidate servers for its first placement decisions only."
	}
	return v
}

func storyHasTables(st story.Story) bool {
	for _, s := range st.Steps {
		if s.Table >= 0 {
			return true
		}
	}
	return false
}

// storySource is the index and tables the story on show reads: the
// run's, or one job's whole story asked for again.
func (a *App) storySource(p *PolicyResult) (*story.Index, *protocol.Tables, error) {
	if s := a.Story; s.full != nil {
		return s.full, s.fullTab, nil
	}
	x, err := p.storyIndex(a.Res.Cluster)
	return x, p.story.tables, err
}

// ToggleStep opens or closes the placement table of step i.
func (a *App) ToggleStep(i int) {
	if s := a.Story; s != nil {
		if s.Open == i {
			s.Open = -1
		} else {
			s.Open = i
		}
	}
}

// AskFullStory asks a worker to run the story's policy again, keeping
// every record of its job, when the run's records stopped before it.
func (a *App) AskFullStory() {
	s, p := a.Story, a.StoryRun()
	if p == nil || s.Asking || s.full != nil {
		return
	}
	s.Asking, s.Err = true, ""
	req := protocol.StoryRequest{Document: a.Res.Doc, Seed: a.Res.Seed, Policy: p.Index, Job: s.Job}
	a.pool.ask(protocol.TypeStory, req, nil, func(m protocol.Message) {
		s.Asking = false
		if m.Type != protocol.TypeStoried {
			s.Err = "The run could not be repeated: " + errorText(m)
			return
		}
		notes, err := protocol.DecodeNotes(m.Bin[protocol.StoryKey(0)])
		var tables *protocol.Tables
		if err == nil {
			tables, err = protocol.NewTables(m.Bin[protocol.TablesKey(0)])
		}
		if err != nil {
			s.Err = "The repeated run's records could not be read: " + err.Error()
			return
		}
		in := p.storyInput(a.Res.Cluster, notes)
		in.Cut = false
		s.full, s.fullTab = story.NewIndex(in), tables
	})
}

// TableView is a placement decision laid out for the page: a row per
// server (servers refused alike are grouped), a column per filter and
// per score, as kube-scheduler-simulator shows a pod's.
type TableView struct {
	Caption string
	Filters []string
	Scores  []string
	Rows    []TableRow
	Outcome string
	// Hidden counts the rows left out of a long table.
	Hidden int
	Err    string
}

// TableRow is one server, or several servers that the same filter
// refused for the same reason.
type TableRow struct {
	Server  string
	Type    string
	Free    string
	Cells   []TableCell // one per filter, then one per score
	Taken   string
	Chosen  bool
	Refused bool
}

// TableCell is one verdict or score.
type TableCell struct {
	Text  string
	Class string // pass, fail, skip, score
	Title string
}

// maxTableRows bounds the rows a table shows.
const maxTableRows = 40

func (a *App) tableView(p *PolicyResult, tables *protocol.Tables, i int) *TableView {
	if tables == nil {
		return &TableView{Err: "this run kept no placement tables"}
	}
	tb, err := tables.Table(i)
	if err != nil {
		return &TableView{Err: err.Error()}
	}
	return newTableView(tb, p.Out.Jobs)
}

// newTableView lays a placement decision out.
func newTableView(tb *story.Placement, jobs []results.JobOutput) *TableView {
	name := fmt.Sprintf("job %d", tb.Job)
	if int(tb.Job) < len(jobs) && tb.Job >= 0 {
		name = jobs[tb.Job].ID
	}
	mem := ""
	if tb.MemoryGB > 0 {
		mem = fmt.Sprintf(", %.3g GB each", tb.MemoryGB)
	}
	v := &TableView{Filters: tb.Filters, Scores: tb.Scores,
		Caption: fmt.Sprintf("How the %s placement chose GPUs for %s (%s%s), server by server", tb.Placement, name, plural(tb.GPUs, "GPU"), mem)}
	if tb.Chosen == nil {
		v.Outcome = "No set of GPUs passed: the job waits (" + tb.Why + ")."
	} else {
		v.Outcome = fmt.Sprintf("Chosen: %s on %s.", plural(len(tb.Chosen), "GPU"), plural(serversTaken(tb), "server"))
	}
	var last *TableRow
	lastKey := ""
	for _, sv := range tb.Servers {
		row := TableRow{Server: fmt.Sprintf("server %d", sv.Server), Type: sv.Type, Free: fmt.Sprintf("%d (%d usable)", sv.Free, sv.Usable)}
		refusedAt := -1
		for k, f := range tb.Filters {
			switch {
			case sv.Filter == "":
				row.Cells = append(row.Cells, TableCell{Text: "passes", Class: "pass"})
			case f == sv.Filter:
				refusedAt = k
				row.Cells = append(row.Cells, TableCell{Text: "refuses: " + sv.Reason, Class: "fail"})
			case refusedAt >= 0:
				row.Cells = append(row.Cells, TableCell{Text: "not checked", Class: "skip", Title: "an earlier filter refused the server"})
			default:
				row.Cells = append(row.Cells, TableCell{Text: "passes", Class: "pass"})
			}
		}
		for k := range tb.Scores {
			c := TableCell{Text: "–", Class: "skip", Title: "refused servers are not scored"}
			if k < len(sv.Scores) {
				c = TableCell{Text: fmt.Sprintf("%.4g", sv.Scores[k]), Class: "score"}
			}
			row.Cells = append(row.Cells, c)
		}
		row.Refused = sv.Filter != ""
		if sv.Taken > 0 {
			row.Taken, row.Chosen = fmt.Sprintf("%d", sv.Taken), true
		}
		// servers refused alike, one after another, share a row
		key := sv.Type + "|" + sv.Filter + "|" + sv.Reason
		if row.Refused && last != nil && last.Refused && key == lastKey {
			last.Server = groupName(last.Server, sv.Server)
			continue
		}
		if len(v.Rows) >= maxTableRows {
			v.Hidden++
			continue
		}
		v.Rows = append(v.Rows, row)
		last, lastKey = &v.Rows[len(v.Rows)-1], key
	}
	return v
}

// groupName widens "server 3" or "servers 3–5" to end at server s.
func groupName(name string, s cluster.ServerID) string {
	first := strings.TrimPrefix(strings.TrimPrefix(name, "servers "), "server ")
	if i := strings.Index(first, "–"); i >= 0 {
		first = first[:i]
	}
	return fmt.Sprintf("servers %s–%d", first, s)
}

func serversTaken(tb *story.Placement) int {
	n := 0
	for _, sv := range tb.Servers {
		if sv.Taken > 0 {
			n++
		}
	}
	return n
}

// PlacementWords explains, in plain words, the filters and scores a
// placement table names.
var PlacementWords = map[string]string{
	"gpu-type":       "refuses servers whose GPUs are not of the job's type, or on which the job would make no progress",
	"free-memory":    "refuses servers with no free GPU that has the job's memory free",
	"strict-shape":   "strict placement: a job that fits on one server must run on one server (a larger one on whole free servers)",
	"fewest-servers": "prefers servers with more free GPUs, so the job spreads over as few servers as possible",
	"best-fit":       "prefers the fullest server that still holds the job, keeping large holes for large jobs",
	"interference":   "prefers servers whose jobs would slow this one down least",
	"pair-match":     "prefers the server where the job makes the best pair with a job already there",
}

// TermText explains a filter or score by name.
func TermText(name string) string {
	if s, ok := PlacementWords[name]; ok {
		return s
	}
	return "a filter or score of this placement"
}

// errorText is the message of a worker's error reply.
func errorText(m protocol.Message) string {
	var e protocol.Error
	_ = json.Unmarshal(m.JSON, &e)
	if e.Message == "" {
		return "no answer"
	}
	return e.Message
}
