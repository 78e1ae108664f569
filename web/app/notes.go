package app

// A Note is a notice that matters: the page keeps it until the user
// dismisses it, acts on it, or its cause goes away, whatever else happens
// (a run starting, another message). Notes with different keys show
// together; a note replaces the one with the same key. The status line
// (App.Notice) is for passing messages.
type Note struct {
	Key  string
	Text string
	Err  bool
	// Actions are the note's buttons besides Dismiss.
	Actions []NoteAction
}

// NoteAction is a button of a note.
type NoteAction struct {
	// Name identifies the action within its note ("export", "run", ...);
	// the button's id is "note-KEY-NAME".
	Name, Label string
	do          func()
}

// Keys of the notes.
const (
	NoteLink    = "link"    // a share link that could not be read
	NoteCorrupt = "corrupt" // a stored scenario that could not be read
	NoteSave    = "save"    // the scenario could not be saved
	NoteSize    = "size"    // a big scenario not run by itself
	NoteEngine  = "engine"  // an engine worker died during a run
)

// note shows (or replaces) the note with key.
func (a *App) note(key, text string, isErr bool, actions ...NoteAction) {
	n := &Note{Key: key, Text: text, Err: isErr, Actions: actions}
	for i, old := range a.Notes {
		if old.Key == key {
			a.Notes[i] = n
			return
		}
	}
	a.Notes = append(a.Notes, n)
}

// dropNote removes the note with key, if shown.
func (a *App) dropNote(key string) {
	for i, n := range a.Notes {
		if n.Key == key {
			a.Notes = append(a.Notes[:i:i], a.Notes[i+1:]...)
			return
		}
	}
}

// NoteFor returns the note with key, or nil.
func (a *App) NoteFor(key string) *Note {
	for _, n := range a.Notes {
		if n.Key == key {
			return n
		}
	}
	return nil
}

// Dismiss closes the note with key.
func (a *App) Dismiss(key string) {
	if key == NoteCorrupt {
		a.holdStored = false // the user has seen it; saving may go on
	}
	a.dropNote(key)
}

// NoteDo runs the action name of the note with key.
func (a *App) NoteDo(key, name string) {
	n := a.NoteFor(key)
	if n == nil {
		return
	}
	for _, act := range n.Actions {
		if act.Name == name && act.do != nil {
			act.do()
			return
		}
	}
}
