package main

import (
	"strings"
	"testing"
)

// generated is a Build as vugugen writes it (its shapes copied from
// web/0_components_gen.go before compaction), with the statements that
// must be left alone marked "kept".
const generated = `package web

import "github.com/vugu/vugu"

func (c *Bar) Build(vgin *vugu.BuildIn) (vgout *vugu.BuildOut) {
	vgout = &vugu.BuildOut{}
	var vgn *vugu.VGNode
	vgn = &vugu.VGNode{Type: vugu.VGNodeType(3), Namespace: "", Data: "section", Attr: []vugu.VGAttribute{{Namespace: "", Key: "class", Val: "bar"}}}
	vgout.Out = append(vgout.Out, vgn) // root for output: kept
	{
		vgparent := vgn
		_ = vgparent
		vgn = &vugu.VGNode{Type: vugu.VGNodeType(1), Data: "\n  "}
		vgparent.AppendChild(vgn)
		vgn = &vugu.VGNode{Type: vugu.VGNodeType(3), Namespace: "", Data: "button", Attr: []vugu.VGAttribute{{Namespace: "", Key: "id", Val: "run"}, vugu.VGAttribute{Namespace: "", Key: "class", Val: "primary"}}}
		vgparent.AppendChild(vgn)
		vgn.DOMEventHandlerSpecList = append(vgn.DOMEventHandlerSpecList, vugu.DOMEventHandlerSpec{
			EventType: "click",
			Func:      func(event vugu.DOMEvent) { c.Run() },
			// TODO: implement capture, etc. mostly need to decide syntax
		})
		if c.Busy() {
			vgn = &vugu.VGNode{Type: vugu.VGNodeType(3), Namespace: "", Data: "p", Attr: []vugu.VGAttribute(nil)}
			vgparent.AppendChild(vgn)
		}
		vgn = &vugu.VGNode{Type: vugu.VGNodeType(3), Namespace: "", Data: "", Attr: []vugu.VGAttribute(nil)} // <vg-template>
		vgparent.AppendChild(vgn)
		vgn = &vugu.VGNode{Type: vugu.VGNodeType(3), Namespace: "", Data: "svg", Attr: []vugu.VGAttribute{{Namespace: "xlink", Key: "href", Val: "#a"}}}
		vgparent.AppendChild(vgn) // kept: a namespaced attribute
		vgn = &vugu.VGNode{Type: vugu.VGNodeType(1), Data: c.Label()}
		vgparent.AppendChild(vgn) // kept: data not a constant
		vgn = &vugu.VGNode{Type: vugu.VGNodeType(3), Namespace: "", Data: "ul", Attr: []vugu.VGAttribute{}}
		vgparent.AppendChild(vgn) // kept: an empty, not nil, list
		vgn = &vugu.VGNode{Type: vugu.VGNodeType(3), Namespace: "", Data: "li"}
		vgn.SetInnerHTML(c.Label()) // kept: not followed by AppendChild
		vgparent.AppendChild(vgn)
		vgn.DOMEventHandlerSpecList = append(vgn.DOMEventHandlerSpecList, vugu.DOMEventHandlerSpec{EventType: "scroll", Func: c.OnScroll, Passive: true}) // kept: Passive
		vgn = &vugu.VGNode{Component: c.Child}
		vgparent.AppendChild(vgn) // kept: a component
	}
	return vgout
}
`

const compacted = `package web

import "github.com/vugu/vugu"

func (c *Bar) Build(vgin *vugu.BuildIn) (vgout *vugu.BuildOut) {
	vgout = &vugu.BuildOut{}
	var vgn *vugu.VGNode
	vgn = &vugu.VGNode{Type: vugu.VGNodeType(3), Namespace: "", Data: "section", Attr: []vugu.VGAttribute{{Namespace: "", Key: "class", Val: "bar"}}}
	vgout.Out = append(vgout.Out, vgn) // root for output: kept
	{
		vgparent := vgn
		_ = vgparent
		vgn = vgText(vgparent, "\n  ")
		vgn = vgAppend(vgparent, vugu.VGNodeType(3), "", "button", "id", "run", "class", "primary")
		vgOn(vgn, "click", func(event vugu.DOMEvent) { c.Run() })
		if c.Busy() {
			vgn = vgAppend(vgparent, vugu.VGNodeType(3), "", "p")
		}
		vgn = vgAppend(vgparent, vugu.VGNodeType(3), "", "")
		vgn = &vugu.VGNode{Type: vugu.VGNodeType(3), Namespace: "", Data: "svg", Attr: []vugu.VGAttribute{{Namespace: "xlink", Key: "href", Val: "#a"}}}
		vgparent.AppendChild(vgn) // kept: a namespaced attribute
		vgn = &vugu.VGNode{Type: vugu.VGNodeType(1), Data: c.Label()}
		vgparent.AppendChild(vgn) // kept: data not a constant
		vgn = &vugu.VGNode{Type: vugu.VGNodeType(3), Namespace: "", Data: "ul", Attr: []vugu.VGAttribute{}}
		vgparent.AppendChild(vgn) // kept: an empty, not nil, list
		vgn = &vugu.VGNode{Type: vugu.VGNodeType(3), Namespace: "", Data: "li"}
		vgn.SetInnerHTML(c.Label()) // kept: not followed by AppendChild
		vgparent.AppendChild(vgn)
		vgn.DOMEventHandlerSpecList = append(vgn.DOMEventHandlerSpecList, vugu.DOMEventHandlerSpec{EventType: "scroll", Func: c.OnScroll, Passive: true}) // kept: Passive
		vgn = &vugu.VGNode{Component: c.Child}
		vgparent.AppendChild(vgn) // kept: a component
	}
	return vgout
}
`

func TestCompact(t *testing.T) {
	got, n, err := Compact([]byte(generated))
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != compacted {
		t.Errorf("compacted:\n%s\nwant:\n%s", got, compacted)
	}
	if n != 5 {
		t.Errorf("%d statements rewritten, want 5", n)
	}
}

func TestCompactTwiceChangesNothing(t *testing.T) {
	got, n, err := Compact([]byte(compacted))
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != compacted || n != 0 {
		t.Errorf("compacting compacted code rewrote %d statements:\n%s", n, got)
	}
}

// A node literal inside a handler's function is left to a second pass:
// the two edits would overlap.
func TestCompactNestedEditsDoNotOverlap(t *testing.T) {
	src := strings.Replace(generated, "func(event vugu.DOMEvent) { c.Run() }", `func(event vugu.DOMEvent) {
				vgn = &vugu.VGNode{Type: vugu.VGNodeType(1), Data: "x"}
				vgparent.AppendChild(vgn)
			}`, 1)
	once, n, err := Compact([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if n != 5 || !strings.Contains(string(once), `vgOn(vgn, "click", func(event vugu.DOMEvent) {`) || !strings.Contains(string(once), `Data: "x"}`) {
		t.Fatalf("first pass (%d rewritten):\n%s", n, once)
	}
	twice, n, err := Compact(once)
	if err != nil {
		t.Fatal(err)
	}
	if n != 1 || !strings.Contains(string(twice), `vgn = vgText(vgparent, "x")`) {
		t.Errorf("second pass (%d rewritten):\n%s", n, twice)
	}
}

func TestCompactRefusesBadSource(t *testing.T) {
	if _, _, err := Compact([]byte("package web\nfunc (")); err == nil {
		t.Error("no error for source that does not parse")
	}
}
