// Package snapshot draws, when the site is built, the page's first screen
// as plain HTML: the page's own components (web.Root) rendered natively
// from the page's own state once it has shown the default scenario's
// build-time results (web/prebuild's Shown). build/site puts it in
// index.html, so that a newcomer sees the results while the page's module
// (megabytes) downloads and compiles; the page, once started, renders over
// it element by element (Vugu reuses the elements it finds), and its own
// results view takes over.
//
// Until then nothing on it works, so every control is drawn disabled, and
// the run's progress line says how the page's download is going
// (web/boot.js writes into BootID).
package snapshot

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/vugu/html"
	"github.com/vugu/html/atom"
	"github.com/vugu/vugu"

	"github.com/schedlab/schedlab/web"
	"github.com/schedlab/schedlab/web/app"
)

// BootID is the id of the element that web/boot.js fills with the page's
// download progress.
const BootID = "boot-what"

// Marker is the attribute of the page's root element while it is the
// snapshot: the page's first render removes it (Vugu drops the attributes
// it did not set), so scripts and tests can tell the two apart.
const Marker = "data-snapshot"

// PhoneMedia is the media query of a screen that gets the phone's figures:
// the page draws narrower figures under 760 px (web/app's figureWidth).
const PhoneMedia = "(max-width: 759.5px)"

// Draw returns the page as desktop and phone (the same page state drawn
// for a desktop's and a phone's screen, see prebuild.Shown) show it, as
// HTML: the attributes of the page's root element (class="app" …, with
// Marker) and, apart, the root's inner HTML. The two must differ only in
// their images' addresses: each such image becomes a picture whose phone
// source is for PhoneMedia, so that a browser fetches only the one it
// shows. Images in a closed details element (the Gantt charts as images,
// for downloads) are left without an address: they are not on screen,
// and the page fills them in.
func Draw(desktop, phone *app.App) (attrs, content string, err error) {
	inner := map[*html.Node]bool{}
	root, err := draw(desktop, inner)
	if err != nil {
		return "", "", err
	}
	other, err := draw(phone, inner)
	if err != nil {
		return "", "", err
	}
	if err := merge(root, other, false, inner); err != nil {
		return "", "", err
	}
	setAttr(root, Marker, "")
	var a1, out strings.Builder
	for _, at := range root.Attr {
		a1.WriteString(" " + at.Key)
		if at.Val != "" || at.Key != Marker {
			a1.WriteString(`="` + html.EscapeString(at.Val) + `"`)
		}
	}
	for c := root.FirstChild; c != nil; c = c.NextSibling {
		if err := html.Render(&out, c); err != nil {
			return "", "", err
		}
	}
	return strings.TrimSpace(a1.String()), out.String(), nil
}

// draw renders the page a shows and returns its root element, its controls
// disabled and the run's progress line turned into the download's.
// Elements whose content the page sets as HTML (vg-content of vugu.HTML)
// are noted in inner.
func draw(a *app.App, inner map[*html.Node]bool) (*html.Node, error) {
	env, err := vugu.NewBuildEnv()
	if err != nil {
		return nil, err
	}
	// The first build leaves the Gantt chart to a task of its own
	// (App.GanttSVGInTurn); the second draws it.
	root := &web.Root{App: a}
	env.RunBuild(root)
	br := env.RunBuild(root)
	nodes, err := tree(br, br.Out, inner)
	if err != nil {
		return nil, err
	}
	if len(nodes) != 1 || nodes[0].Type != html.ElementNode || !hasClass(nodes[0], "app") {
		return nil, errors.New("the page has no root element of class app")
	}
	top := nodes[0]
	boot := find(top, func(n *html.Node) bool { return attr(n, "id") == "progress-text" })
	if boot == nil {
		return nil, errors.New("the page shows no run in progress (no #progress-text)")
	}
	setAttr(boot, "id", BootID)
	for c := boot.FirstChild; c != nil; c = boot.FirstChild {
		boot.RemoveChild(c)
	}
	boot.AppendChild(&html.Node{Type: html.TextNode, Data: "Loading schedlab…"})
	walk(top, func(n *html.Node) {
		switch n.Data {
		case "button", "input", "select", "textarea":
			if n.Type == html.ElementNode && !has(n, "disabled") {
				n.Attr = append(n.Attr, html.Attribute{Key: "disabled"})
			}
		}
	})
	return top, nil
}

// tree turns a build's output into HTML nodes as Vugu's DOM renderer lays
// them out (components and templates replaced by their content), node for
// node: the page, when it starts, walks the document's nodes in that order
// and replaces any of another kind, so the snapshot's must match for its
// elements (and images) to stay. HTML cannot hold an empty text node, or
// two side by side (a parser merges them), which the page's DOM has where
// a vg-if left nothing: each such one is written as an empty comment, its
// text joined to the one before; the page puts a text node in its place.
// (staticrender does the same layout, but writes the text as it is.)
func tree(br *vugu.BuildResults, bo *vugu.BuildOut, inner map[*html.Node]bool) ([]*html.Node, error) {
	if bo == nil || len(bo.Out) != 1 {
		return nil, errors.New("a component's build has no single root")
	}
	var visit func(v *vugu.VGNode) ([]*html.Node, error)
	visit = func(v *vugu.VGNode) ([]*html.Node, error) {
		switch {
		case v.Component != nil:
			return tree(br, br.ResultFor(v.Component), inner)
		case v.IsTemplate():
			var out []*html.Node
			for c := v.FirstChild; c != nil; c = c.NextSibling {
				ns, err := visit(c)
				if err != nil {
					return nil, err
				}
				out = append(out, ns...)
			}
			return out, nil
		}
		n := &html.Node{Type: html.NodeType(v.Type), Data: v.Data, Namespace: v.Namespace, DataAtom: atom.Lookup([]byte(v.Data))}
		for _, at := range v.Attr {
			n.Attr = append(n.Attr, html.Attribute{Namespace: at.Namespace, Key: at.Key, Val: at.Val})
		}
		if v.InnerHTML != nil {
			// The page sets it as innerHTML, which the browser parses.
			parts, err := html.ParseFragment(strings.NewReader(*v.InnerHTML), &html.Node{Type: html.ElementNode, Data: "div", DataAtom: atom.Div})
			if err != nil {
				return nil, err
			}
			for _, c := range parts {
				n.AppendChild(c)
			}
			inner[n] = true
			return []*html.Node{n}, nil
		}
		var prev *html.Node
		for c := v.FirstChild; c != nil; c = c.NextSibling {
			ns, err := visit(c)
			if err != nil {
				return nil, err
			}
			for _, k := range ns {
				if k.Type == html.TextNode && (k.Data == "" || prev != nil && prev.Type == html.TextNode) {
					if prev != nil && prev.Type == html.TextNode {
						prev.Data += k.Data
					}
					k = &html.Node{Type: html.CommentNode}
				}
				n.AppendChild(k)
				prev = k
			}
		}
		return []*html.Node{n}, nil
	}
	return visit(bo.Out[0])
}

// merge makes n (a desktop's page) serve phones too, other being the
// phone's; hidden says n is in a closed details element. Content that the
// page sets as HTML (inner) and draws for the screen's width (the Gantt
// chart) is kept twice, in elements of the classes "snap-wide" and
// "snap-narrow" that the style sheet shows for PhoneMedia or not: the page
// replaces that content as a whole, so its nodes need not match the
// page's.
func merge(n, other *html.Node, hidden bool, inner map[*html.Node]bool) error {
	if n.Type != other.Type || n.Data != other.Data {
		return fmt.Errorf("the desktop's page has %q where the phone's has %q", n.Data, other.Data)
	}
	if n.Type == html.ElementNode && n.Data == "img" {
		src, phone := attr(n, "src"), attr(other, "src")
		if !hidden && src != phone {
			pic := &html.Node{Type: html.ElementNode, Data: "picture", DataAtom: atom.Lookup([]byte("picture"))}
			n.Parent.InsertBefore(pic, n)
			n.Parent.RemoveChild(n)
			pic.AppendChild(&html.Node{Type: html.ElementNode, Data: "source", DataAtom: atom.Source,
				Attr: []html.Attribute{{Key: "media", Val: PhoneMedia}, {Key: "srcset", Val: phone}}})
			pic.AppendChild(n)
		}
		removeAttr(n, "src")
		removeAttr(other, "src")
		if !equalAttrs(n, other) {
			return fmt.Errorf("the desktop's page and the phone's differ in an image's attributes: %v against %v", n.Attr, other.Attr)
		}
		if !hidden && src != "" {
			n.Attr = append(n.Attr, html.Attribute{Key: "src", Val: src})
		}
	} else if !equalAttrs(n, other) {
		return fmt.Errorf("the desktop's page and the phone's differ in a %s element's attributes: %v against %v", n.Data, n.Attr, other.Attr)
	}
	if inner[n] {
		var a, b strings.Builder
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			_ = html.Render(&a, c)
		}
		for c := other.FirstChild; c != nil; c = c.NextSibling {
			_ = html.Render(&b, c)
		}
		if a.String() == b.String() {
			return nil
		}
		wide, narrow := box("snap-wide"), box("snap-narrow")
		for c := n.FirstChild; c != nil; c = n.FirstChild {
			n.RemoveChild(c)
			wide.AppendChild(c)
		}
		for c := other.FirstChild; c != nil; c = other.FirstChild {
			other.RemoveChild(c)
			narrow.AppendChild(c)
		}
		n.AppendChild(wide)
		n.AppendChild(narrow)
		return nil
	}
	hidden = hidden || n.Type == html.ElementNode && n.Data == "details" && !has(n, "open")
	c, o := n.FirstChild, other.FirstChild
	for c != nil && o != nil {
		next := c.NextSibling // c may move into a picture
		if err := merge(c, o, hidden, inner); err != nil {
			return err
		}
		c, o = next, o.NextSibling
	}
	if c != nil || o != nil {
		return fmt.Errorf("the desktop's page and the phone's differ in the children of a %s element", n.Data)
	}
	return nil
}

func box(class string) *html.Node {
	return &html.Node{Type: html.ElementNode, Data: "div", DataAtom: atom.Div, Attr: []html.Attribute{{Key: "class", Val: class}}}
}

func equalAttrs(n, o *html.Node) bool {
	if n.Type == html.TextNode || n.Type == html.CommentNode {
		return n.Data == o.Data
	}
	if len(n.Attr) != len(o.Attr) {
		return false
	}
	for i, a := range n.Attr {
		if a != o.Attr[i] {
			return false
		}
	}
	return true
}

func removeAttr(n *html.Node, key string) {
	n.Attr = slices.DeleteFunc(n.Attr, func(a html.Attribute) bool { return a.Key == key })
}

func walk(n *html.Node, f func(*html.Node)) {
	f(n)
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		walk(c, f)
	}
}

func find(n *html.Node, ok func(*html.Node) bool) *html.Node {
	if ok(n) {
		return n
	}
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if f := find(c, ok); f != nil {
			return f
		}
	}
	return nil
}

func attr(n *html.Node, key string) string {
	for _, a := range n.Attr {
		if a.Key == key {
			return a.Val
		}
	}
	return ""
}

func has(n *html.Node, key string) bool {
	for _, a := range n.Attr {
		if a.Key == key {
			return true
		}
	}
	return false
}

func setAttr(n *html.Node, key, val string) {
	for i, a := range n.Attr {
		if a.Key == key {
			n.Attr[i].Val = val
			return
		}
	}
	n.Attr = append(n.Attr, html.Attribute{Key: key, Val: val})
}

func hasClass(n *html.Node, c string) bool {
	for _, f := range strings.Fields(attr(n, "class")) {
		if f == c {
			return true
		}
	}
	return false
}
