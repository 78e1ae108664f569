package liberation

// Placeholder is a TrueType font of one empty glyph and no characters,
// named "schedlab placeholder": the data of all twelve faces here.
//
// gonum/plot parses every Liberation face it knows when it starts (its
// package initialisation calls font/liberation's Collection), whether or
// not the program ever draws a figure. Parsing the two real faces
// (Liberation Sans's kerning and character maps) was, in WebAssembly, a
// large part of the command line's start-up: V8's optimising compiler
// compiled the font parser for a parse that runs once. With the
// placeholder gonum parses 416 bytes twelve times, and schedlab's
// sim/plot parses Liberation Sans Regular and Bold, from
// github.com/go-fonts/liberation, when it draws its first figure, and
// puts them in gonum's font cache in the placeholders' place. A figure
// that asked for any other face would be drawn with no glyphs;
// sim/plot's TestFiguresUseTwoFaces fails if one does.
//
// The tables are the fewest that golang.org/x/image/font/sfnt parses,
// in the order of their tags, each at an offset that is a multiple of 4,
// with their checksums and the head table's checksum adjustment set.
const Placeholder = "" +
	// sfnt version 1.0, 9 tables, search range, entry selector, range shift
	"\x00\x01\x00\x00\x00\t\x00\x80\x00\x03\x00\x10" +
	"cmap\x00\f\x00&\x00\x00\x00\x9c\x00\x00\x00$" +
	"glyf\x00\x00\x00\x00\x00\x00\x00\xc0\x00\x00\x00\x00" +
	"head_\x13@\xe5\x00\x00\x00\xc0\x00\x00\x006" +
	"hhea\x03\"\x01.\x00\x00\x00\xf8\x00\x00\x00$" +
	"hmtx\x01\xf4\x00\x00\x00\x00\x01\x1c\x00\x00\x00\x04" +
	"loca\x00\x00\x00\x00\x00\x00\x01 \x00\x00\x00\x04" +
	"maxp\x00\x02\x00\x00\x00\x00\x01$\x00\x00\x00 " +
	"name\x04(\a\xfd\x00\x00\x01D\x00\x00\x00:" +
	"post\x00\x03\x00\x00\x00\x00\x01\x80\x00\x00\x00 " +
	// cmap: version 0, one subtable (Windows, Unicode BMP) at 12: format 4, length 24, one segment, the closing 0xFFFF
	"\x00\x00\x00\x01\x00\x03\x00\x01\x00\x00\x00\f\x00\x04\x00\x18\x00\x00\x00\x02\x00\x02\x00\x00\x00\x00\xff\xff\x00\x00\xff\xff\x00\x01\x00\x00" +
	// glyf: empty: glyph 0 has no outline
	"" +
	// head: version 1.0, revision 1.0, checksum adjustment, magic, flags 0, 1000 units per em, created and modified 0, bounds 0, style 0, smallest readable 8, direction hint 2, short loca, glyph data format 0
	"\x00\x01\x00\x00\x00\x01\x00\x00$(=\xc9_\x0f<\xf5\x00\x00\x03\xe8\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\b\x00\x02\x00\x00\x00\x00\x00\x00" +
	// hhea: version 1.0, ascender 800, descender -200, line gap 0, advance max 500, bearings and extent 0, caret rise 1 run 0 offset 0, reserved, metric format 0, one horizontal metric
	"\x00\x01\x00\x00\x03 \xff8\x00\x00\x01\xf4\x00\x00\x00\x00\x00\x00\x00\x01\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x01" +
	// hmtx: glyph 0: advance 500, left bearing 0
	"\x01\xf4\x00\x00" +
	// loca: glyph 0 from 0 to 0 (short offsets)
	"\x00\x00\x00\x00" +
	// maxp: version 1.0, one glyph, every other maximum 0
	"\x00\x01\x00\x00\x00\x01\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00" +
	// name: format 0, one record, strings at 18: Windows, Unicode BMP, en-US, full name, in UTF-16BE: "schedlab placeholder"
	"\x00\x00\x00\x01\x00\x12\x00\x03\x00\x01\x04\t\x00\x04\x00(\x00\x00\x00s\x00c\x00h\x00e\x00d\x00l\x00a\x00b\x00 \x00p\x00l\x00a\x00c\x00e\x00h\x00o\x00l\x00d\x00e\x00r\x00\x00" +
	// post: version 3.0 (no glyph names), italic angle, underline and the rest 0
	"\x00\x03\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00"
