package app

import (
	"bytes"
	"compress/flate"
	"encoding/base64"
	"fmt"
	"io"
	"strings"

	"github.com/schedlab/schedlab/web/doc"
)

// A share link carries the scenario in the URL fragment: "#s=" and the
// scenario's compact JSON, deflated and base64url-encoded. Nothing leaves
// the browser; the link restores the scenario byte for byte.

// maxShared bounds what a link may inflate to, so a hostile link cannot
// exhaust memory.
const maxShared = 32 << 20

// EncodeShare returns the fragment (without "#") for a tree.
func EncodeShare(tree any) string {
	return encodeDeflated(doc.Compact(tree), flate.BestCompression)
}

// encodeDeflated is "s=" and the compact JSON deflated at level and
// base64url-encoded: a link's fragment, or a big stored scenario.
func encodeDeflated(compact []byte, level int) string {
	var b bytes.Buffer
	w, _ := flate.NewWriter(&b, level) // the levels passed are valid
	w.Write(compact)
	w.Close()
	return "s=" + base64.RawURLEncoding.EncodeToString(b.Bytes())
}

// DecodeShare reads a fragment made by EncodeShare.
func DecodeShare(frag string) (any, error) {
	payload, ok := strings.CutPrefix(strings.TrimPrefix(frag, "#"), "s=")
	if !ok {
		return nil, fmt.Errorf("not a scenario link")
	}
	z, err := base64.RawURLEncoding.DecodeString(strings.TrimRight(payload, "="))
	if err != nil {
		return nil, fmt.Errorf("it is damaged or cut short")
	}
	data, err := io.ReadAll(io.LimitReader(flate.NewReader(bytes.NewReader(z)), maxShared+1))
	if err != nil {
		return nil, fmt.Errorf("it is damaged or cut short")
	}
	if len(data) > maxShared {
		return nil, fmt.Errorf("the link's scenario is larger than %d MB", maxShared>>20)
	}
	return doc.Parse(data)
}

// MakeShare builds the share link of the current scenario and copies it.
func (a *App) MakeShare() {
	a.Flush()
	a.Share = a.P.Location() + "#" + EncodeShare(a.Ed.Tree)
	a.Copied = false
}

// CopyShare copies the share link to the clipboard.
func (a *App) CopyShare() {
	a.P.Copy(a.Share)
	a.Copied = true
}

// CloseShare hides the share box.
func (a *App) CloseShare() { a.Share, a.Copied = "", false }

// Export saves the scenario as a JSON file.
func (a *App) Export() {
	name := slug(a.Ed.Str("name"))
	if name == "" {
		name = "scenario"
	}
	a.P.Download(name+".json", "application/json", doc.Marshal(a.Ed.Tree))
}

// Import loads a scenario from a file's text. A file that is not JSON is
// refused with its line and column; a JSON scenario with problems is
// loaded, and its problems show in the editor.
//
// A big document (an imported trace of tens of thousands of jobs) is read
// and then checked in tasks of their own (Platform.Soon), with the page
// drawn in between saying so, rather than in one task of seconds.
func (a *App) Import(filename, text string) {
	if len(text) < BigDocument {
		a.importText(filename, text)
		return
	}
	a.setNotice("Opening "+filename+" ("+sizeText(len(text))+")…", false)
	a.P.Soon(0, func() {
		tree, ok := a.parseImport(filename, text)
		if !ok {
			a.setNotice("", false)
			a.P.After(0, func() {}) // draw the error
			return
		}
		a.P.Soon(0, func() {
			a.importTree(filename, tree)
			a.P.After(0, func() {}) // draw the scenario
		})
	})
}

// BigDocument is the size of document text (1 MB) that Import reads and
// checks in separate tasks.
const BigDocument = 1 << 20

func (a *App) importText(filename, text string) {
	if tree, ok := a.parseImport(filename, text); ok {
		a.importTree(filename, tree)
	}
}

// parseImport reads an imported document, or says why it is not a
// scenario.
func (a *App) parseImport(filename, text string) (any, bool) {
	tree, err := doc.Parse([]byte(text))
	if err != nil {
		a.ImportErr = fmt.Sprintf("%s is not a JSON document: %v", filename, err)
		return nil, false
	}
	if _, ok := tree.(*doc.Object); !ok {
		a.ImportErr = fmt.Sprintf("%s holds JSON but not a scenario object", filename)
		return nil, false
	}
	return tree, true
}

// importTree opens an imported document in the editor (checking it).
func (a *App) importTree(filename string, tree any) {
	a.ImportErr = ""
	a.load(tree)
	a.Show("The imported scenario") // runs it, as every way of loading does
	if a.Ed.Valid() {
		a.setNotice("Imported "+filename+".", false)
	} else {
		a.setNotice(fmt.Sprintf("Imported %s; it has %s to fix.", filename, plural(len(a.Ed.Problems), "problem")), true)
	}
}
