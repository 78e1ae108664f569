package main

import (
	"bytes"
	"cmp"
	"go/ast"
	"go/format"
	"go/parser"
	"go/token"
	"slices"
	"strings"
)

// Compact rewrites vugugen's output src (see the command's doc) and
// returns it gofmt-formatted, with the number of statements (or pairs of
// statements) it replaced. Each is replaced in the text, so the rest of
// the file keeps its layout; comments inside a replaced statement
// (vugugen's "TODO: implement capture" and "<vg-template>" notes) go
// with it. Compacting compacted code changes nothing.
func Compact(src []byte) ([]byte, int, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "", src, parser.ParseComments)
	if err != nil {
		return nil, 0, err
	}
	text := func(e ast.Node) string {
		return string(src[fset.Position(e.Pos()).Offset:fset.Position(e.End()).Offset])
	}
	var edits []edit
	ast.Inspect(f, func(x ast.Node) bool {
		b, ok := x.(*ast.BlockStmt)
		if !ok {
			return true
		}
		for i := 0; i < len(b.List); i++ {
			from := fset.Position(b.List[i].Pos()).Offset
			if on, ok := handlerCall(b.List[i], text); ok {
				edits = append(edits, edit{from, fset.Position(b.List[i].End()).Offset, on})
				continue
			}
			if i+1 < len(b.List) {
				if made, ok := appendCall(b.List[i], b.List[i+1], text); ok {
					edits = append(edits, edit{from, fset.Position(b.List[i+1].End()).Offset, made})
					i++
				}
			}
		}
		return true
	})
	out, n := apply(src, edits)
	if n > 0 {
		out = withLintDirective(out)
	}
	formatted, err := format.Source(out)
	if err != nil {
		return nil, 0, err
	}
	return formatted, n, nil
}

// lintDirective tells staticcheck that the stores to vgn that text nodes
// leave are meant: vugugen's code keeps each new node in vgn, and nothing
// reads a text node's, which staticcheck saw only once the node was made
// by a call (before, AppendChild read it).
const lintDirective = "//lint:file-ignore SA4006 a text node's vgn, kept as vugugen keeps every node, is never read (build/vgcompact)"

// withLintDirective adds lintDirective to the comment lines that open the
// file (vugugen's "Code generated" notice), unless it is there.
func withLintDirective(src []byte) []byte {
	if bytes.Contains(src, []byte(lintDirective)) {
		return src
	}
	end := 0
	for bytes.HasPrefix(src[end:], []byte("//")) {
		nl := bytes.IndexByte(src[end:], '\n')
		if nl < 0 {
			break
		}
		end += nl + 1
	}
	out := append([]byte{}, src[:end]...)
	out = append(out, lintDirective+"\n"...)
	return append(out, src[end:]...)
}

// An edit replaces src[from:to] with text.
type edit struct {
	from, to int
	text     string
}

// apply makes the edits, in order of position, skipping any inside an
// earlier one (a later Compact makes those), and reports how many it made.
func apply(src []byte, edits []edit) ([]byte, int) {
	slices.SortFunc(edits, func(a, b edit) int { return cmp.Compare(a.from, b.from) })
	var out []byte
	at, n := 0, 0
	for _, e := range edits {
		if e.from < at {
			continue
		}
		out = append(out, src[at:e.from]...)
		out = append(out, e.text...)
		at = e.to
		n++
	}
	return append(out, src[at:]...), n
}

// appendCall returns `vgn = vgText(vgparent, data)` or `vgn =
// vgAppend(vgparent, type, namespace, data, key, value...)` for
//
//	vgn = &vugu.VGNode{Type: ..., Namespace: "...", Data: "...", Attr: ...}
//	vgparent.AppendChild(vgn)
//
// when the node has only those fields, each a constant, and its
// attributes no namespace; nil otherwise.
func appendCall(made, appendChild ast.Stmt, text func(ast.Node) string) (string, bool) {
	lit := nodeLiteral(made)
	if lit == nil || !isAppendChild(appendChild) {
		return "", false
	}
	node, ok := plainNode(lit)
	if !ok {
		return "", false
	}
	if node.isText() {
		return "vgn = vgText(vgparent, " + text(node.data) + ")", true
	}
	args := []string{"vgparent", text(node.typ), orEmpty(node.namespace, text), orEmpty(node.data, text)}
	for _, a := range node.attrs {
		args = append(args, text(a))
	}
	return "vgn = vgAppend(" + strings.Join(args, ", ") + ")", true
}

// orEmpty is e's text, or "" for a field the literal leaves out.
func orEmpty(e ast.Expr, text func(ast.Node) string) string {
	if e == nil {
		return `""`
	}
	return text(e)
}

// nodeLiteral returns the literal of `vgn = &vugu.VGNode{...}`, or nil.
func nodeLiteral(s ast.Stmt) *ast.CompositeLit {
	as, ok := s.(*ast.AssignStmt)
	if !ok || as.Tok != token.ASSIGN || len(as.Lhs) != 1 || len(as.Rhs) != 1 || !isIdent(as.Lhs[0], "vgn") {
		return nil
	}
	u, ok := as.Rhs[0].(*ast.UnaryExpr)
	if !ok || u.Op != token.AND {
		return nil
	}
	lit, ok := u.X.(*ast.CompositeLit)
	if !ok || !isSelector(lit.Type, "vugu", "VGNode") {
		return nil
	}
	return lit
}

// isAppendChild reports whether s is `vgparent.AppendChild(vgn)`.
func isAppendChild(s ast.Stmt) bool {
	es, ok := s.(*ast.ExprStmt)
	if !ok {
		return false
	}
	call, ok := es.X.(*ast.CallExpr)
	if !ok || len(call.Args) != 1 || !isIdent(call.Args[0], "vgn") {
		return false
	}
	sel, ok := call.Fun.(*ast.SelectorExpr)
	return ok && isIdent(sel.X, "vgparent") && sel.Sel.Name == "AppendChild"
}

// A node is what a plain node literal sets: its type (a call
// vugu.VGNodeType(n)), namespace and data (string literals, nil when
// left out) and its attributes as key, value pairs of string literals.
type node struct {
	typ             *ast.CallExpr
	namespace, data ast.Expr
	attrs           []ast.Expr
}

// isText reports a text node (vugu.TextNode, 1) with data and no
// namespace or attribute, which vgText makes.
func (n node) isText() bool {
	kind, ok := n.typ.Args[0].(*ast.BasicLit)
	return ok && kind.Value == "1" && n.data != nil && (n.namespace == nil || isEmptyString(n.namespace)) && len(n.attrs) == 0
}

// plainNode reads a node literal that sets only Type, Namespace, Data
// and Attr, each a constant; ok is false for anything else.
func plainNode(lit *ast.CompositeLit) (n node, ok bool) {
	for _, e := range lit.Elts {
		kv, isKV := e.(*ast.KeyValueExpr)
		if !isKV {
			return node{}, false
		}
		switch fieldName(kv) {
		case "Type":
			call, isCall := kv.Value.(*ast.CallExpr)
			if !isCall || !isSelector(call.Fun, "vugu", "VGNodeType") || len(call.Args) != 1 {
				return node{}, false
			}
			if _, isLit := call.Args[0].(*ast.BasicLit); !isLit {
				return node{}, false
			}
			n.typ = call
		case "Namespace":
			if !isString(kv.Value) {
				return node{}, false
			}
			n.namespace = kv.Value
		case "Data":
			if !isString(kv.Value) {
				return node{}, false
			}
			n.data = kv.Value
		case "Attr":
			attrs, isPlain := plainAttrs(kv.Value)
			if !isPlain {
				return node{}, false
			}
			n.attrs = attrs
		default:
			return node{}, false
		}
	}
	return n, n.typ != nil
}

// plainAttrs reads []vugu.VGAttribute(nil) (no attributes) or a literal
// list of {Namespace: "", Key: "k", Val: "v"} as k, v pairs.
func plainAttrs(e ast.Expr) ([]ast.Expr, bool) {
	switch v := e.(type) {
	case *ast.CallExpr: // []vugu.VGAttribute(nil)
		return nil, len(v.Args) == 1 && isIdent(v.Args[0], "nil")
	case *ast.CompositeLit:
		if len(v.Elts) == 0 {
			return nil, false // an empty, not nil, list: left as it is
		}
		var pairs []ast.Expr
		for _, a := range v.Elts {
			key, val, ok := plainAttr(a)
			if !ok {
				return nil, false
			}
			pairs = append(pairs, key, val)
		}
		return pairs, true
	}
	return nil, false
}

// plainAttr reads one attribute literal with an empty namespace and a
// constant key and value.
func plainAttr(e ast.Expr) (key, val ast.Expr, ok bool) {
	lit, isLit := e.(*ast.CompositeLit)
	if !isLit {
		return nil, nil, false
	}
	for _, f := range lit.Elts {
		kv, isKV := f.(*ast.KeyValueExpr)
		if !isKV || !isString(kv.Value) {
			return nil, nil, false
		}
		switch fieldName(kv) {
		case "Namespace":
			if !isEmptyString(kv.Value) {
				return nil, nil, false
			}
		case "Key":
			key = kv.Value
		case "Val":
			val = kv.Value
		default:
			return nil, nil, false
		}
	}
	return key, val, key != nil && val != nil
}

// handlerCall returns `vgOn(vgn, event, f)` for
//
//	vgn.DOMEventHandlerSpecList = append(vgn.DOMEventHandlerSpecList,
//		vugu.DOMEventHandlerSpec{EventType: event, Func: f})
//
// with event a string literal and no other field set; nil otherwise.
func handlerCall(s ast.Stmt, text func(ast.Node) string) (string, bool) {
	as, ok := s.(*ast.AssignStmt)
	if !ok || as.Tok != token.ASSIGN || len(as.Lhs) != 1 || len(as.Rhs) != 1 || !isHandlerList(as.Lhs[0]) {
		return "", false
	}
	call, ok := as.Rhs[0].(*ast.CallExpr)
	if !ok || !isIdent(call.Fun, "append") || len(call.Args) != 2 || call.Ellipsis.IsValid() || !isHandlerList(call.Args[0]) {
		return "", false
	}
	lit, ok := call.Args[1].(*ast.CompositeLit)
	if !ok || !isSelector(lit.Type, "vugu", "DOMEventHandlerSpec") {
		return "", false
	}
	var event, fn ast.Expr
	for _, e := range lit.Elts {
		kv, isKV := e.(*ast.KeyValueExpr)
		if !isKV {
			return "", false
		}
		switch fieldName(kv) {
		case "EventType":
			if !isString(kv.Value) {
				return "", false
			}
			event = kv.Value
		case "Func":
			fn = kv.Value
		default: // Capture, Passive
			return "", false
		}
	}
	if event == nil || fn == nil {
		return "", false
	}
	return "vgOn(vgn, " + text(event) + ", " + text(fn) + ")", true
}

// isHandlerList reports whether e is vgn.DOMEventHandlerSpecList.
func isHandlerList(e ast.Expr) bool {
	sel, ok := e.(*ast.SelectorExpr)
	return ok && isIdent(sel.X, "vgn") && sel.Sel.Name == "DOMEventHandlerSpecList"
}

func fieldName(kv *ast.KeyValueExpr) string {
	if id, ok := kv.Key.(*ast.Ident); ok {
		return id.Name
	}
	return ""
}

func isIdent(e ast.Expr, name string) bool {
	id, ok := e.(*ast.Ident)
	return ok && id.Name == name
}

func isSelector(e ast.Expr, pkg, name string) bool {
	sel, ok := e.(*ast.SelectorExpr)
	return ok && isIdent(sel.X, pkg) && sel.Sel.Name == name
}

func isString(e ast.Expr) bool {
	lit, ok := e.(*ast.BasicLit)
	return ok && lit.Kind == token.STRING
}

func isEmptyString(e ast.Expr) bool {
	lit, ok := e.(*ast.BasicLit)
	return ok && lit.Kind == token.STRING && (lit.Value == `""` || lit.Value == "``")
}
