// Command vgcompact rewrites the Go that vugugen generates for the page's
// components (web/0_components_gen.go) so that each plain node is made by
// one call to a small helper instead of inline code. `go generate ./web`
// runs it after vugugen:
//
//	go run ../build/vgcompact 0_components_gen.go
//
// Why: vugugen writes every node of a template as a composite literal
// followed by AppendChild, which the compiler inlines, so a component's
// Build grows by a few hundred bytes of WebAssembly per node (its
// allocation, four sibling pointers, a write-barrier check for each
// pointer stored). The largest Builds were 75–155 kB. V8 charges every
// jump back to the head of a function against the function's budget for
// its optimising compiler, and a Go function in WebAssembly jumps back
// to its head at every branch, so these functions, run a dozen times while
// the page loads, were all compiled by TurboFan: 3.75 s of CPU of a
// cold load's 8.9 s of TurboFan on the 2-core test machine, in the
// background threads that the page's main thread and engine worker need.
// With each node one call the Builds are about half as large
// (docs/development.md, "The page's components").
//
// What is rewritten (anything else is left as vugugen wrote it):
//
//	vgn = &vugu.VGNode{Type: vugu.VGNodeType(1), Data: "text"}
//	vgparent.AppendChild(vgn)
//	→ vgn = vgText(vgparent, "text")
//
//	vgn = &vugu.VGNode{Type: vugu.VGNodeType(3), Namespace: "", Data: "div",
//		Attr: []vugu.VGAttribute{{Namespace: "", Key: "class", Val: "x"}}}
//	vgparent.AppendChild(vgn)
//	→ vgn = vgAppend(vgparent, vugu.VGNodeType(3), "", "div", "class", "x")
//
//	vgn.DOMEventHandlerSpecList = append(vgn.DOMEventHandlerSpecList,
//		vugu.DOMEventHandlerSpec{EventType: "click", Func: f})
//	→ vgOn(vgn, "click", f)
//
// The package being generated defines vgText, vgAppend and vgOn (web's
// vgnodes.go), and they build the same nodes.
package main

import (
	"fmt"
	"os"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: vgcompact FILE.go... (rewrites each file in place)")
		os.Exit(2)
	}
	for _, name := range os.Args[1:] {
		if err := compactFile(name); err != nil {
			fmt.Fprintln(os.Stderr, "vgcompact:", err)
			os.Exit(1)
		}
	}
}

func compactFile(name string) error {
	src, err := os.ReadFile(name)
	if err != nil {
		return err
	}
	out, n, err := Compact(src)
	if err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	if err := os.WriteFile(name, out, 0o644); err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "vgcompact: %s: %d statements rewritten\n", name, n)
	return nil
}
