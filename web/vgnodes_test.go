package web

import (
	"reflect"
	"testing"

	"github.com/vugu/vugu"
)

// withChild is a parent that already holds one child, so that appending
// sets sibling pointers too.
func withChild() *vugu.VGNode {
	p := &vugu.VGNode{Type: vugu.ElementNode, Data: "div"}
	p.AppendChild(&vugu.VGNode{Type: vugu.TextNode, Data: "first"})
	return p
}

// The helpers build the trees vugugen's literals built (the form
// build/vgcompact replaces), compared whole: parent, siblings, fields.
func TestVGHelpersBuildVugugensNodes(t *testing.T) {
	want, got := withChild(), withChild()
	n := &vugu.VGNode{Type: vugu.VGNodeType(3), Namespace: "", Data: "button", Attr: []vugu.VGAttribute{{Namespace: "", Key: "id", Val: "run"}, {Namespace: "", Key: "class", Val: "primary"}}}
	want.AppendChild(n)
	n = &vugu.VGNode{Type: vugu.VGNodeType(1), Data: "\n  "}
	want.AppendChild(n)
	n = &vugu.VGNode{Type: vugu.VGNodeType(3), Namespace: "svg", Data: "g", Attr: []vugu.VGAttribute(nil)}
	want.AppendChild(n)

	if m := vgAppend(got, vugu.VGNodeType(3), "", "button", "id", "run", "class", "primary"); m != got.FirstChild.NextSibling {
		t.Error("vgAppend did not return the node it appended")
	}
	if m := vgText(got, "\n  "); m != got.LastChild {
		t.Error("vgText did not return the node it appended")
	}
	vgAppend(got, vugu.VGNodeType(3), "svg", "g")

	if !reflect.DeepEqual(got, want) {
		for w, g := want.FirstChild, got.FirstChild; w != nil || g != nil; {
			t.Errorf("child: got %+v, want %+v", g, w)
			if w != nil {
				w = w.NextSibling
			}
			if g != nil {
				g = g.NextSibling
			}
		}
	}
}

func TestVGOnAddsAfterExistingHandlers(t *testing.T) {
	n := &vugu.VGNode{Type: vugu.ElementNode, Data: "button"}
	var calls []string
	vgOn(n, "click", func(vugu.DOMEvent) { calls = append(calls, "click") })
	vgOn(n, "input", func(vugu.DOMEvent) { calls = append(calls, "input") })
	if len(n.DOMEventHandlerSpecList) != 2 {
		t.Fatalf("%d handlers, want 2", len(n.DOMEventHandlerSpecList))
	}
	for i, want := range []string{"click", "input"} {
		h := n.DOMEventHandlerSpecList[i]
		if h.EventType != want || h.Capture || h.Passive {
			t.Errorf("handler %d: %+v, want a plain %q handler", i, h, want)
		}
		h.Func(nil)
	}
	if !reflect.DeepEqual(calls, []string{"click", "input"}) {
		t.Errorf("calling the handlers in order ran %v", calls)
	}
}
