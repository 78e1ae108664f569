// Package fpdf stands in for codeberg.org/go-pdf/fpdf in schedlab's
// builds (see the replace directive in schedlab's go.mod).
//
// gonum/plot links every one of its drawing back ends, PDF among them
// (gonum.org/v1/plot/vg/vgpdf, through go-pdf), into every binary that
// plots. schedlab draws SVG and PNG only, but go-pdf brought in
// encoding/gob and regexp, and with regexp unicode's tables of scripts
// and categories: all three are set up when the program starts, which in
// WebAssembly costs more than the rest of start-up together (V8's
// optimising compiler compiles those run-once functions; docs/
// development.md, issue 37). This module keeps only what vgpdf compiles
// against: drawing does nothing, and writing a document (Output) or a
// font (MakeFont) fails with ErrLeftOut, so a figure drawn as PDF fails
// with that error (vgpdf panics with it at the first text) rather than
// giving an empty file.
package fpdf // import "codeberg.org/go-pdf/fpdf"

import (
	"errors"
	"io"
)

// ErrLeftOut is what writing a PDF returns: schedlab's builds have no PDF
// back end.
var ErrLeftOut = errors.New("PDF output is not part of schedlab (internal/fpdf stands in for go-pdf)")

// SizeType is a page's width and height.
type SizeType struct {
	Wd, Ht float64
}

// InitType is a document's layout, as NewCustom takes it.
type InitType struct {
	OrientationStr string
	UnitStr        string
	SizeStr        string
	Size           SizeType
	FontDirStr     string
}

// FontDescType describes a font; the stand-in knows none, so every field
// is zero (vgpdf then uses its defaults).
type FontDescType struct {
	Ascent, Descent, CapHeight, Flags, ItalicAngle, StemV, MissingWidth int
}

// ImageOptions describes an image to place.
type ImageOptions struct {
	ImageType             string
	ReadDpi               bool
	AllowNegativePosition bool
}

// ImageInfoType describes a registered image.
type ImageInfoType struct{}

// Fpdf is a document that draws nothing and cannot be written.
type Fpdf struct {
	page int
	font float64
}

// NewCustom returns an empty document.
func NewCustom(init *InitType) *Fpdf { return &Fpdf{} }

// MakeFont fails: the stand-in writes no fonts.
func MakeFont(fontFileStr, encodingFileStr, dstDirStr string, msgWriter io.Writer, embed bool) error {
	return ErrLeftOut
}

// Output fails: the stand-in writes no documents.
func (f *Fpdf) Output(w io.Writer) error { return ErrLeftOut }

// AddPage starts a page.
func (f *Fpdf) AddPage() { f.page++ }

// PageNo is the current page's number.
func (f *Fpdf) PageNo() int { return f.page }

// SetFont sets the font size (the only font state the stand-in keeps).
func (f *Fpdf) SetFont(familyStr, styleStr string, size float64) { f.font = size }

// GetFontSize is the font size in points and in the document's unit
// (points, as vgpdf sets it).
func (f *Fpdf) GetFontSize() (ptSize, unitSize float64) { return f.font, f.font }

// GetFontDesc knows no font.
func (f *Fpdf) GetFontDesc(familyStr, styleStr string) FontDescType { return FontDescType{} }

// GetCellMargin is 0.
func (f *Fpdf) GetCellMargin() float64 { return 0 }

// GetStringWidth is 0: the stand-in measures no text.
func (f *Fpdf) GetStringWidth(s string) float64 { return 0 }

// RegisterImageOptionsReader registers nothing.
func (f *Fpdf) RegisterImageOptionsReader(imgName string, options ImageOptions, r io.Reader) *ImageInfoType {
	return &ImageInfoType{}
}

// The drawing operations do nothing.

func (f *Fpdf) AddFontFromBytes(familyStr, styleStr string, jsonFileBytes, zFileBytes []byte) {}
func (f *Fpdf) Arc(x, y, rx, ry, degRotate, degStart, degEnd float64, styleStr string)        {}
func (f *Fpdf) CellFormat(w, h float64, txtStr, borderStr string, ln int, alignStr string, fill bool, link int, linkStr string) {
}
func (f *Fpdf) Close()                                                {}
func (f *Fpdf) ClosePath()                                            {}
func (f *Fpdf) CurveBezierCubicTo(cx0, cy0, cx1, cy1, x, y float64)   {}
func (f *Fpdf) CurveTo(cx, cy, x, y float64)                          {}
func (f *Fpdf) DrawPath(styleStr string)                              {}
func (f *Fpdf) LineTo(x, y float64)                                   {}
func (f *Fpdf) MoveTo(x, y float64)                                   {}
func (f *Fpdf) SetAlpha(alpha float64, blendModeStr string)           {}
func (f *Fpdf) SetDashPattern(dashArray []float64, dashPhase float64) {}
func (f *Fpdf) SetDrawColor(r, g, b int)                              {}
func (f *Fpdf) SetFillColor(r, g, b int)                              {}
func (f *Fpdf) SetLineWidth(width float64)                            {}
func (f *Fpdf) SetMargins(left, top, right float64)                   {}
func (f *Fpdf) SetTextColor(r, g, b int)                              {}
func (f *Fpdf) TransformBegin()                                       {}
func (f *Fpdf) TransformEnd()                                         {}
func (f *Fpdf) TransformRotate(angle, x, y float64)                   {}
func (f *Fpdf) TransformScale(scaleWd, scaleHt, x, y float64)         {}
func (f *Fpdf) TransformTranslate(tx, ty float64)                     {}
func (f *Fpdf) ImageOptions(imageNameStr string, x, y, w, h float64, flow bool, options ImageOptions, link int, linkStr string) {
}
