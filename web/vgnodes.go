package web

import "github.com/vugu/vugu"

// The helpers below make the page's plain nodes for the generated Build
// methods: build/vgcompact rewrites vugugen's inline node literals into
// calls to them (run by `go generate`). Each builds the node the literal
// built. They are kept out of line so that each node costs one call in
// a Build, not a copy of their bodies: in WebAssembly a large Build is
// handed to V8's optimising compiler after a few calls (see
// build/vgcompact), and smaller ones cost it less.

// vgText appends a text node to parent and returns it.
//
//go:noinline
func vgText(parent *vugu.VGNode, text string) *vugu.VGNode {
	n := &vugu.VGNode{Type: vugu.TextNode, Data: text}
	parent.AppendChild(n)
	return n
}

// vgAppend appends a node of that type, namespace and data (an element's
// tag) to parent, with its attributes given as key, value pairs in order,
// and returns it. With no pairs its attribute list is nil, as vugugen's
// literal leaves it.
//
//go:noinline
func vgAppend(parent *vugu.VGNode, typ vugu.VGNodeType, namespace, data string, keyValues ...string) *vugu.VGNode {
	n := &vugu.VGNode{Type: typ, Namespace: namespace, Data: data}
	if len(keyValues) > 0 {
		n.Attr = make([]vugu.VGAttribute, len(keyValues)/2)
		for i := range n.Attr {
			n.Attr[i] = vugu.VGAttribute{Key: keyValues[2*i], Val: keyValues[2*i+1]}
		}
	}
	parent.AppendChild(n)
	return n
}

// vgOn adds a handler of event to n, after those it has.
//
//go:noinline
func vgOn(n *vugu.VGNode, event string, f func(vugu.DOMEvent)) {
	n.DOMEventHandlerSpecList = append(n.DOMEventHandlerSpecList, vugu.DOMEventHandlerSpec{EventType: event, Func: f})
}
