// Package app is the state and behaviour of schedlab's page, without the
// browser: the scenario editor, the engine workers and their runs, the
// results, the timeline, the gallery, saving and sharing. The Vugu
// components in package web render an App and call its methods; the
// browser itself (workers, storage, downloads) is behind Platform, so the
// whole page logic runs in native tests.
package app

import (
	"compress/flate"
	"encoding/json"
	"errors"
	"fmt"
	"runtime/debug"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/schedlab/schedlab/scenarios"
	_ "github.com/schedlab/schedlab/sim/policy/all" // the policies a scenario may name
	"github.com/schedlab/schedlab/sim/results"
	"github.com/schedlab/schedlab/sim/scenario"
	"github.com/schedlab/schedlab/web/doc"
	"github.com/schedlab/schedlab/web/protocol"
)

// Platform is what the page needs from the browser. Replies (worker
// messages, files, timers) come back through the App's methods, called
// with the UI locked.
type Platform interface {
	// Cores is navigator.hardwareConcurrency.
	Cores() int
	// ViewportWidth is the page's width in CSS pixels.
	ViewportWidth() int
	// StartWorker starts engine worker id; its messages arrive through
	// App.OnWorker. StopWorker terminates it at once.
	StartWorker(id int)
	PostWorker(id int, m protocol.Message)
	StopWorker(id int)
	// Load and Save use localStorage. Save fails with ErrStorageFull
	// when the browser's quota is exceeded.
	Load(key string) (string, bool)
	Save(key, value string) error
	// Fragment is the URL fragment without "#"; SetFragment replaces it
	// without adding a history entry. Location is the page URL without
	// the fragment.
	Fragment() string
	SetFragment(f string)
	Location() string
	// BlobURL makes an object URL for bytes; RevokeURL frees one.
	BlobURL(data []byte, mime string) string
	RevokeURL(url string)
	// Download saves bytes as a file.
	Download(filename, mime string, data []byte)
	// Copy puts text on the clipboard.
	Copy(text string)
	// Fetch sends an HTTP request (body nil for GET, else JSON) and
	// calls done with the reply, with the UI locked.
	Fetch(method, url string, body []byte, done func(FetchReply))
	// Focus focuses (and scrolls to) the element with that id.
	Focus(id string)
	// PickFile lets the user choose a file and calls done with its name
	// and text (with the UI locked).
	PickFile(accept string, done func(name, text string, err error))
	// After calls f after d, with the UI locked, and renders the page.
	After(d time.Duration, f func())
	// Soon calls f after d with the UI locked, without rendering (for
	// work the page does not show, such as saving).
	Soon(d time.Duration, f func())
	Now() time.Time
	// Report logs an internal error for developers (the console).
	Report(msg string)
}

// Tabs of the page.
const (
	TabGallery  = "gallery"
	TabScenario = "scenario"
	TabResults  = "results"
	TabTimeline = "timeline"
)

// Storage keys.
const (
	// KeyScenario holds the scenario being edited.
	KeyScenario = "schedlab.scenario.v1"
	// KeyDamaged is where a stored scenario that cannot be read is kept
	// (KeyDamaged+".2" and so on when that already holds another), so
	// that opening the page never loses it.
	KeyDamaged  = KeyScenario + ".corrupt"
	keyStash    = "schedlab.stash.v1"
	keyPrevious = "schedlab.previous.v1"
)

// ErrStorageFull is Platform.Save's error when the browser's storage for
// the page is full.
var ErrStorageFull = errors.New("the browser's storage for this page is full")

// App is the page's state.
type App struct {
	P   Platform
	Tab string
	Ed  *Editor

	Gallery []GalleryItem
	// Cards are the gallery's cards (gallery.go), GalleryFilter the kind
	// of card shown ("" for all).
	Cards         []*Card
	GalleryFilter string

	pool *pool
	// Run is the run in progress or the last one started.
	Run *Run
	// Res holds the results of the last finished run.
	Res *Results
	// replacing is the live run whose figures are being drawn to take the
	// place of the build-time results on show (finishResults), nil when
	// none is.
	replacing *Results
	TL        Timeline
	// Story is the job story on show (story.go), nil when none.
	Story *StoryState
	// gantt is the Results view's interactive Gantt chart (gantt.go),
	// jobs its table of jobs (jobtable.go).
	gantt *Gantt
	jobs  *JobTable
	// Fig is the paper figure opened last (figure.go); Repro the
	// committed reproduction report, nil until it is read.
	Fig   *FigureRun
	Repro *results.Reproduction
	// recState is how far Repro has been read (record.go), afterRecord
	// what waits for it; opening is the figure OpenFigure is waiting to
	// open.
	recState    recordState
	afterRecord []func()
	opening     string
	// Pick is the open figure's sweep point, seed and policy that
	// Results and Timeline show (figruns.go).
	Pick FigurePick
	// infos are what the figure view says of built-in scenarios' modes.
	infos map[string]*figureInfo
	// sweep is the editor's sweep form (sweep.go).
	sweep SweepDraft
	// hist is the run history (history.go).
	hist History
	// server is the address typed for a server run (server.go);
	// ServerCheck says that the page is asking it for its health.
	server      string
	ServerCheck string
	// ServerFormOpen shows the figure view's server form.
	ServerFormOpen bool

	// Notice is a short status line; NoticeErr marks it as a failure.
	// A new message replaces it; what must not be missed is a Note.
	Notice    string
	NoticeErr bool
	// Notes stay until dismissed (see Note).
	Notes []*Note
	// Share is the last share link made; ImportErr the last import failure.
	Share     string
	Copied    bool
	ImportErr string
	// Trace is the trace file last imported (importtrace.go).
	Trace *TraceImport
	// ScriptChecks are the last "Check my policy" of each script
	// policy's card, by the card's path (script.go).
	ScriptChecks map[string]*ScriptCheck
	// saving is set while a save is scheduled.
	saving bool
	// checking is set while a check of a big document is due (checkSoon).
	checking bool
	// holdStored stops saving over a stored scenario that could not be
	// read nor copied aside, until the user has downloaded it or
	// dismissed the note about it.
	holdStored bool
	// fromLink is set when the page opened a share link.
	fromLink bool
	// Restored tells where the scenario came from at start.
	Restored string
	// Previous is the scenario an Open, Import or Revert replaced, so
	// that it can be brought back.
	Previous any
	// record keeps the workers' replies for Preview (see Record).
	record bool

	// Learn is the Learn view's state (learn.go).
	Learn LearnState

	// ahead is the message OnWorkerAhead is applying, decoded ahead.
	ahead *Ahead

	// GalleryInSteps, set by the page with DeferGallery, reads the
	// gallery's cards in steps and hands them to SetGallery; openingDone
	// calls it once.
	GalleryInSteps func()
}

// GalleryItem is one built-in scenario.
type GalleryItem struct {
	Name, Title, Description string
	Tags                     []string
	Default                  bool
}

// New builds the page state: the gallery, the scenario from the share
// link, the browser's storage or the default, and the engine workers.
func New(p Platform) *App {
	a := &App{P: p, Tab: TabResults}
	a.pool = newPool(a)
	if !DeferGallery {
		a.LoadGallery()
	}
	tree, replaced := a.initialTree()
	a.Ed = NewEditor(tree)
	a.Ed.Defer = true
	if s, ok := p.Load(keyStash); ok {
		if t, err := doc.Parse([]byte(s)); err == nil {
			if o, ok := t.(*doc.Object); ok {
				for _, k := range o.Keys() {
					v, _ := o.Get(k)
					a.Ed.Stash[k] = v
				}
			}
		}
	}
	if s, ok := p.Load(keyPrevious); ok {
		if t, err := doc.Parse([]byte(s)); err == nil {
			a.Previous = t
		}
	}
	a.loadHistory()
	if replaced != nil {
		a.Previous = replaced
		_ = p.Save(keyPrevious, string(doc.Marshal(replaced))) // kept in memory too
	}
	a.write()
	return a
}

// DeferGallery makes New leave the gallery's cards to LoadGallery or
// App.GalleryInSteps. The page sets it: reading every built-in scenario's
// header took its main thread a long task at start under WebAssembly,
// before anything was on screen, for a view that is not the first one.
var DeferGallery bool

// LoadGallery reads the gallery's cards from the built-in scenarios, once.
func (a *App) LoadGallery() { a.SetGallery(ReadGallery(nil)) }

// GalleryCards is the gallery read from the built-in scenarios.
type GalleryCards struct {
	cards []*Card
	items []GalleryItem
}

// ReadGallery reads the gallery's cards, calling yield (when not nil)
// after each scenario: a page reads them outside its UI lock and hands
// its main thread back between them (all of them in one piece made a
// long task at the page's start). It touches no App state.
func ReadGallery(yield func()) GalleryCards {
	var g GalleryCards
	for _, n := range scenarios.Names() {
		if yield != nil {
			yield()
		}
		data, _ := scenarios.Read(n)
		sc, err := galleryInfo(data)
		if err != nil {
			continue
		}
		desc := sc.Description
		if heavy(sc) {
			desc += " The page opens its quick version (fewer jobs); `schedlab run " + n + "` runs the paper's full preset with every seed and check."
		}
		g.cards = append(g.cards, newCard(n, sc))
		g.cards[len(g.cards)-1].Default = n == scenarios.Default
		g.items = append(g.items, GalleryItem{Name: n, Title: sc.Title, Description: desc, Tags: sc.Tags, Default: n == scenarios.Default})
	}
	return g
}

// SetGallery shows the gallery ReadGallery read, unless one is shown.
func (a *App) SetGallery(g GalleryCards) {
	if a.Cards != nil {
		return
	}
	a.Cards, a.Gallery = g.cards, g.items
}

// Undo brings back the scenario the last Open, Import or Revert replaced.
func (a *App) Undo() {
	if a.Previous == nil {
		return
	}
	prev := a.Previous
	a.load(prev)
	a.Show("The scenario brought back") // as every way of loading does
	a.setNotice("Brought back the scenario you had before.", false)
}

// ChooseImport asks for a scenario or trace file and imports it.
func (a *App) ChooseImport() {
	a.P.PickFile(".json,.csv,.trace,.tsv,.txt,application/json,text/csv", func(name, text string, err error) {
		if err != nil {
			a.ImportErr = "Could not read " + name + ": " + err.Error()
			return
		}
		a.OpenFile(name, text) // a scenario, or a trace (importtrace.go)
	})
}

// initialTree picks the scenario to open with: a share link in the
// fragment wins, then what the browser kept, then the default. When a
// link replaces a kept scenario, that one is returned as previous, so
// that opening a link never loses work.
func (a *App) initialTree() (tree, previous any) {
	var stored any
	if s, ok := a.P.Load(KeyScenario); ok {
		if t, err := readScenario(s); err == nil {
			stored = t
		} else {
			a.keepDamaged(s, err)
		}
	}
	if frag := a.P.Fragment(); strings.HasPrefix(frag, "s=") {
		a.P.SetFragment("") // later reloads restore the edited copy from storage
		shared, err := DecodeShare(frag)
		if err == nil {
			a.Restored = "Opened the scenario from the link."
			a.fromLink = true
			if stored != nil && string(doc.Compact(stored)) != string(doc.Compact(shared)) {
				previous = stored
			}
			return shared, previous
		}
		instead := "your last scenario"
		if stored == nil {
			instead = "the default scenario"
		}
		a.note(NoteLink, "The link's scenario could not be read ("+err.Error()+"); opened "+instead+" instead.", true)
	}
	if stored != nil {
		a.Restored = "Restored your scenario from this browser."
		return stored, nil
	}
	tree, _ = builtin(scenarios.Default)
	return tree, nil
}

// readScenario reads a stored scenario: a JSON object.
func readScenario(s string) (any, error) {
	var t any
	var err error
	if strings.HasPrefix(s, "s=") {
		t, err = DecodeShare(s) // a big scenario, stored deflated
	} else {
		t, err = doc.Parse([]byte(s))
	}
	if err != nil {
		return nil, err
	}
	if _, ok := t.(*doc.Object); !ok {
		return nil, fmt.Errorf("it holds JSON but not a scenario object")
	}
	return t, nil
}

// keepDamaged copies a stored scenario that cannot be read aside, under
// KeyDamaged, before anything is saved over it, and tells the user, with
// a way to download it. When it cannot be copied, it is left in place
// and nothing is saved over it until the user has it.
func (a *App) keepDamaged(text string, err error) {
	key, saveErr := a.backup(text)
	download := NoteAction{Name: "download", Label: "Download the damaged copy", do: func() {
		a.P.Download("schedlab-damaged-scenario.json", "application/json", []byte(text))
		if a.holdStored {
			a.holdStored = false
			a.save()
		}
	}}
	what := fmt.Sprintf("The scenario saved in this browser could not be read (%s, %s). ", err, sizeText(len(text)))
	if saveErr == nil {
		a.note(NoteCorrupt, what+"Nothing is lost: a copy is kept in this browser's storage as “"+key+"”; download it to repair it by hand or to import it elsewhere.", true, download)
		return
	}
	a.holdStored = true
	a.note(NoteCorrupt, what+"It could not be copied aside ("+saveErr.Error()+"), so it stays where it is and your changes are not saved until you download it or dismiss this.", true, download)
}

// backup stores text under the first free damaged-copy key (or the one
// that already holds it).
func (a *App) backup(text string) (string, error) {
	for i := 1; i <= 9; i++ {
		key := KeyDamaged
		if i > 1 {
			key += "." + strconv.Itoa(i)
		}
		if old, ok := a.P.Load(key); ok {
			if old == text {
				return key, nil
			}
			continue
		}
		return key, a.P.Save(key, text)
	}
	return "", fmt.Errorf("nine damaged copies are kept already")
}

// sizeText prints a byte count: "812 bytes", "6.2 MB".
func sizeText(n int) string {
	switch {
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f kB", float64(n)/(1<<10))
	}
	return plural(n, "byte")
}

func builtin(name string) (any, error) {
	data, ok := builtinDocument(name)
	if !ok {
		return nil, fmt.Errorf("no built-in scenario %q", name)
	}
	return doc.Parse(data)
}

// builtinDocument is the document the page opens for a built-in
// scenario: a paper study's quick version when it has one, since the
// paper's full preset (thousands of jobs per policy) is for the command
// line.
func builtinDocument(name string) ([]byte, bool) {
	data, ok := scenarios.Read(name)
	if !ok {
		return nil, false
	}
	sc, err := scenario.Parse(data)
	if err != nil {
		return data, true
	}
	if heavy(sc) {
		if q, err := sc.QuickVariant(); err == nil {
			return q.Document(), true
		}
	}
	if sc.Quick != nil && sc.Sweep != nil && len(sc.Checks) == 0 {
		// A teaching sweep runs whole in the page: its quick block keeps
		// the test suite fast, and every value with the seeds' spread is
		// the curve it is there to show.
		if whole, err := reshape(data, nil, "quick"); err == nil {
			return whole.Document(), true
		}
	}
	return data, true
}

// heavy reports whether a scenario has a quick version that changes the
// workload, i.e. its own preset is too big for the page.
func heavy(sc *scenario.Scenario) bool { return sc.Quick != nil && len(sc.Quick.Set) > 0 }

// galleryInfo reads what the gallery shows of a built-in scenario (its
// title, description, tags, quick changes, and for a figure's card its
// sweep, policies, the paper's numbers and its checks) without validating the
// rest. Parsing all of them in full took the page seconds of its main
// thread at start (Gavel's presets build their workloads); the built-in
// scenarios are valid (their tests parse each one).
func galleryInfo(data []byte) (*scenario.Scenario, error) {
	var sc scenario.Scenario
	var head struct {
		Name        string                `json:"name"`
		Seeds       []uint64              `json:"seeds"`
		Title       string                `json:"title"`
		Description string                `json:"description"`
		Tags        []string              `json:"tags"`
		Quick       *scenario.Quick       `json:"quick"`
		Sweep       *scenario.Sweep       `json:"sweep"`
		Reference   *scenario.Reference   `json:"reference"`
		Checks      []scenario.Check      `json:"checks"`
		Policies    []scenario.PolicySpec `json:"policies"`
	}
	if err := json.Unmarshal(data, &head); err != nil {
		return nil, err
	}
	sc.Name, sc.Seeds = head.Name, head.Seeds
	sc.Title, sc.Description, sc.Tags, sc.Quick = head.Title, head.Description, head.Tags, head.Quick
	sc.Sweep, sc.Reference, sc.Checks, sc.Policies = head.Sweep, head.Reference, head.Checks, head.Policies
	return &sc, nil
}

// Start begins loading the engine and shows the scenario it opened with
// by the rule of Show.
func (a *App) Start() {
	a.pool.ensure(min(a.maxWorkers(), max(1, a.policyCount())))
	from := "The scenario restored from this browser"
	if a.fromLink {
		from = "The link's scenario"
	}
	a.Show(from)
}

// Show is the one rule for a scenario just loaded, whichever way it came
// (the page opening, a share link, the gallery, an imported file, a
// scenario brought back): a valid scenario runs at once and the Results
// view shows it, so every way of loading ends on results; one with
// problems opens the Scenario view at them; one too big to run without
// asking (a link or file may carry any scenario) opens the Scenario view
// with a note that says so and offers to run it. from names the scenario
// in that note.
func (a *App) Show(from string) {
	switch size := a.Ed.Size(); {
	case !a.Ed.Valid():
		a.Tab = TabScenario
	case !size.autoRuns():
		a.Tab = TabScenario
		a.note(NoteSize, fmt.Sprintf("%s is big (%s), so it was not run by itself: a run may take minutes and much of this device's memory. Look it over, then run it.", from, size.Describe()), false,
			NoteAction{Name: "run", Label: "Run it", do: a.RunAndShow})
	default:
		a.RunAndShow()
		return
	}
	a.openingDone() // no run to leave the main thread to
}

// RunAndShow runs the scenario and shows the Results view, where the run's
// progress and then its results appear (the Run button does this).
func (a *App) RunAndShow() {
	a.Tab = TabResults
	a.StartRun()
}

func (a *App) policyCount() int { return len(doc.List(a.Ed.Tree, "policies")) }

// maxWorkers is the number of engine workers the page may run at once.
func (a *App) maxWorkers() int { return max(1, min(a.P.Cores(), 8)) }

// Recover, deferred by every event handler, turns a panic (a bug) into a
// notice: the page and the scenario survive it.
func (a *App) Recover() {
	if r := recover(); r != nil {
		a.P.Report(fmt.Sprintf("%v\n%s", r, debug.Stack()))
		a.setNotice(fmt.Sprintf("Something went wrong (%v); your scenario is safe. Details are in the browser console.", r), true)
	}
}

// figureWidth is the width in inches to draw figures at: the engine's
// default (7 inches, 672 pixels) unless the screen is narrower, where a
// scaled-down image would make the labels unreadable.
func (a *App) figureWidth() float64 {
	vw := a.P.ViewportWidth()
	if vw <= 0 || vw >= 760 {
		return 0
	}
	return max(3.4, float64(vw-48)/96)
}

// SetTab switches the view; what the page left until its first results
// were drawn is read now if it was not (openingDone).
func (a *App) SetTab(t string) {
	a.Tab = t
	a.openingDone()
}

// openingDone runs, once, the page's work that waits until its first
// results are drawn (or its first run ended without any, or none was
// started), or until the user turns to another view, whichever comes
// first: reading the gallery's cards (GalleryInSteps) and the committed
// record (ReadRecord). On a cold load on two cores, that work (and V8
// compiling its code) took the cores the first run needed: the page's own
// results came 0.4 s later with the record read as the page opened, and
// about 0.2 s later with the cards read then too (docs/page-loading.md).
func (a *App) openingDone() {
	if f := a.GalleryInSteps; f != nil {
		a.GalleryInSteps = nil
		f()
	}
	a.ReadRecord()
}

func (a *App) setNotice(msg string, isErr bool) {
	a.Notice, a.NoticeErr = msg, isErr
}

// SaveDelay gathers the changes of a burst of typing into one write to
// the browser's storage; Flush writes at once (the page calls it when it
// is hidden or closed).
const SaveDelay = 200 * time.Millisecond

// CheckDelay gathers the edits of a burst of typing into one check of a
// big document (Editor.Defer).
const CheckDelay = 300 * time.Millisecond

// checkSoon checks a big document's edits in a task of their own, and
// draws the verdict.
func (a *App) checkSoon() {
	if !a.Ed.Stale() || a.checking {
		return
	}
	a.checking = true
	a.P.Soon(CheckDelay, func() {
		a.checking = false
		if a.Ed.CheckNow() {
			a.P.After(0, func() {}) // draw the verdict
		}
	})
}

// save stores the scenario soon (and has a big one checked).
func (a *App) save() {
	a.checkSoon()
	if a.saving {
		return
	}
	a.saving = true
	a.P.Soon(SaveDelay, a.Flush)
}

// Flush stores the scenario now if a save is pending.
func (a *App) Flush() {
	if a.saving {
		a.saving = false
		a.write()
	}
}

func (a *App) write() {
	if !a.holdStored {
		// A save usually runs without redrawing the page (Platform.Soon):
		// when its note comes or goes, ask for a render.
		shown := a.NoteFor(NoteSave) != nil
		defer func() {
			if (a.NoteFor(NoteSave) != nil) != shown {
				a.P.After(0, func() {})
			}
		}()
		data := a.storedForm()
		if err := a.P.Save(KeyScenario, string(data)); err != nil {
			a.note(NoteSave, fmt.Sprintf("Your latest changes are not saved in this browser (%v; the scenario is %s). Export it to keep it: reloading the page would bring back the last version saved.", err, sizeText(len(data))),
				true, NoteAction{Name: "export", Label: "Export the scenario", do: a.Export})
		} else {
			a.dropNote(NoteSave)
		}
	}
	stash := doc.NewObject()
	for k, v := range a.Ed.Stash {
		stash.Set(k, v)
	}
	_ = a.P.Save(keyStash, string(doc.Compact(sortedObject(stash)))) // what a switch put aside; losing it loses no scenario
}

// storedForm is the scenario as the browser stores it: laid out as an
// export is, except a big document (an imported trace), stored as a share
// link's payload is (the compact JSON deflated, in base64). The 74,426-job
// Philly log is 12.6 MB indented and 7.3 MB compact, over the browser's
// quota of about 5 million characters; deflated it fits.
func (a *App) storedForm() []byte {
	if c := a.Ed.JSON(); len(c) >= BigDocument {
		return []byte(encodeDeflated([]byte(c), flate.BestSpeed))
	}
	return doc.Marshal(a.Ed.Tree)
}

// sortedObject orders an object's keys, so that saving is deterministic.
func sortedObject(o *doc.Object) *doc.Object {
	keys := append([]string(nil), o.Keys()...)
	sort.Strings(keys)
	out := doc.NewObject()
	for _, k := range keys {
		v, _ := o.Get(k)
		out.Set(k, v)
	}
	return out
}

// Open loads a built-in scenario and runs it.
func (a *App) Open(name string) {
	tree, err := builtin(name)
	if err != nil {
		a.setNotice(err.Error(), true)
		return
	}
	a.load(tree)
	a.setNotice("", false)
	if sc := a.Ed.Scenario(); sc != nil && sc.Sweep != nil && len(sc.Checks) == 0 && a.Ed.Valid() && a.Ed.Size().autoRuns() {
		// A teaching preset that sweeps a value draws its curve; a paper's
		// figure opened with "Run once" runs one point, its figure being
		// the record's.
		a.RunFigure()
		return
	}
	a.Show("This scenario")
}

// load replaces the scenario being edited; the one it replaces can be
// brought back with Undo.
func (a *App) load(tree any) {
	// The editor's compact JSON is compared after loading, so that a big
	// document is encoded once; the replaced tree is no longer edited.
	prevTree, prevJSON := a.Ed.Tree, a.Ed.JSON()
	a.Ed.Load(tree)
	if a.Ed.JSON() != prevJSON {
		a.Previous = prevTree
		_ = a.P.Save(keyPrevious, string(doc.Marshal(a.Previous))) // kept in memory too
	}
	a.Ed.Stash = map[string]any{}
	a.Restored = ""
	a.saving = false
	if len(a.Ed.JSON()) >= BigDocument {
		// Stored in a task of its own (Platform.Soon): encoding and
		// storing tens of thousands of jobs is work the opening need not
		// wait for.
		a.save()
		return
	}
	a.write()
}

// LoadTree replaces the scenario being edited (as an import does).
func (a *App) LoadTree(tree any) { a.load(tree) }

// Builtin reports whether the scenario has the name of a built-in one and
// differs from it, so that it can be reverted.
func (a *App) Builtin() (name string, modified bool) {
	// Asked at every render: remembered until the next edit.
	b := cached(a.Ed, "builtin", func() builtinState {
		n, m := a.builtin()
		return builtinState{n, m}
	})
	return b.name, b.modified
}

type builtinState struct {
	name     string
	modified bool
}

func (a *App) builtin() (name string, modified bool) {
	name = a.Ed.Str("name")
	data, ok := builtinDocument(name)
	if !ok {
		return "", false
	}
	tree, err := doc.Parse(data)
	if err != nil {
		return "", false
	}
	return name, string(doc.Compact(tree)) != a.Ed.JSON()
}

// Revert reloads the built-in scenario of the same name; like any edit,
// it does not run (the results say they are stale until Run).
func (a *App) Revert() {
	if name, modified := a.Builtin(); modified {
		tree, _ := builtin(name)
		a.load(tree)
		a.setNotice("Reverted to the built-in "+name+".", false)
	}
}

// Focus moves to the input of a problem.
func (a *App) Focus(p Problem) {
	a.Tab = TabScenario
	section := sectionOf(p.Path)
	delete(a.Ed.Closed, section)
	a.P.Focus(p.ID)
}

func sectionOf(path string) string {
	switch r := sectionRank(path); {
	case r >= 1 && r <= 3:
		return "about"
	case strings.HasPrefix(path, "perf"):
		if strings.HasPrefix(path, "perf.interference") {
			return "interference"
		}
		return "advanced"
	case strings.HasPrefix(path, "engine"), strings.HasPrefix(path, "metrics"), strings.HasPrefix(path, "plots"):
		return "advanced"
	case strings.HasPrefix(path, "seeds"):
		return "workload"
	}
	section, _, _ := strings.Cut(path, ".")
	section, _, _ = strings.Cut(section, "[")
	return section
}

// Toggle opens or closes an editor section.
func (a *App) Toggle(section string) {
	if a.Ed.Closed[section] {
		delete(a.Ed.Closed, section)
	} else {
		a.Ed.Closed[section] = true
	}
}
