// Package tex holds the boxes of a LaTeX layout; in schedlab's builds no
// layout is ever made (see package latex).
package tex // import "codeberg.org/go-latex/latex/tex"

// Node is a box of a layout.
type Node interface {
	Width() float64
	Height() float64
	Depth() float64
}

// Tree is a box holding other boxes.
type Tree interface {
	Node
	Nodes() []Node
}

// Ship places the boxes of a tree.
type Ship struct{}

// Call places the boxes of box at (ox, oy).
func (*Ship) Call(ox, oy float64, box Tree) {}
