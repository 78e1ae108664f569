// Package form turns Go parameter structs (policy, generator and perf
// model parameters, cluster and engine settings) into form descriptions
// for the editor: one Field per input, with its JSON path, label, unit,
// range, choices and default, read from the struct's json, unit, min, max,
// enum and help tags, the same tags the scenario validator enforces. It
// also converts between what a user types and the document's values.
//
// The package is plain Go (no browser), so its behaviour is tested natively.
package form

import (
	"encoding/json"
	"reflect"
	"strconv"
	"strings"

	"github.com/schedlab/schedlab/web/doc"
)

// Kind is the kind of input a field needs.
type Kind string

// Field kinds.
const (
	Number     Kind = "number"
	Integer    Kind = "integer"
	String     Kind = "string"
	Bool       Kind = "bool"
	Enum       Kind = "enum"
	NumberList Kind = "number-list"
	StringList Kind = "string-list"
	JSON       Kind = "json" // anything else, edited as JSON text
)

// Field is one input.
type Field struct {
	Path  string // JSON path in the scenario, e.g. cluster.servers[0].gpus
	ID    string // DOM id of the input
	Name  string // JSON name, e.g. gpus
	Label string
	Kind  Kind
	Unit  string
	Help  string
	Min   *float64
	Max   *float64
	Enum  []string
	// Default is the value used when the field is absent, as text.
	Default string
	// Optional fields are removed from the document when cleared; the
	// others keep an empty value, which the validator reports.
	Optional bool
}

// Widget is one element of a form: a field, a table or a group.
type Widget struct {
	Field *Field
	Table *Table
	Group *Group
}

// Table edits a list of objects, one row per element.
type Table struct {
	Path    string
	ID      string
	Label   string
	Help    string
	Columns []*Field // Path is relative to a row
	Rows    [][]*Field
	// Template is the tree value of a new row.
	Template any
}

// Group is a nested object.
type Group struct {
	Path    string
	Label   string
	Help    string
	Widgets []Widget
}

// Describe lists the widgets of struct type t (a struct or pointer to one)
// at path base in tree; defaults (a value or pointer of type t, may be
// nil) gives the defaults. Fields named in skip are left out.
func Describe(t reflect.Type, defaults any, base string, tree any, skip ...string) []Widget {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	dv := reflect.Value{}
	if defaults != nil {
		dv = reflect.ValueOf(defaults)
		for dv.Kind() == reflect.Pointer && !dv.IsNil() {
			dv = dv.Elem()
		}
		if dv.Kind() != reflect.Struct {
			dv = reflect.Value{}
		}
	}
	var out []Widget
	for _, sf := range fields(t) {
		if contains(skip, sf.name) {
			continue
		}
		var def reflect.Value
		if dv.IsValid() {
			def = dv.FieldByIndex(sf.index)
		}
		out = append(out, describeField(t.Name(), sf, def, base, tree))
	}
	return out
}

type structField struct {
	name      string
	omitEmpty bool
	index     []int
	field     reflect.StructField
}

// fields lists the JSON fields of t in order, flattening embedded structs
// as encoding/json does.
func fields(t reflect.Type) []structField {
	var out []structField
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		if !f.IsExported() {
			continue
		}
		tag := f.Tag.Get("json")
		name, opts, _ := strings.Cut(tag, ",")
		if name == "-" {
			continue
		}
		if f.Anonymous && name == "" && f.Type.Kind() == reflect.Struct {
			for _, sub := range fields(f.Type) {
				sub.index = append([]int{i}, sub.index...)
				out = append(out, sub)
			}
			continue
		}
		if name == "" {
			name = f.Name
		}
		out = append(out, structField{name: name, omitEmpty: strings.Contains(opts, "omitempty"), index: []int{i}, field: f})
	}
	return out
}

var rawMessage = reflect.TypeOf(json.RawMessage(nil))

func describeField(owner string, sf structField, def reflect.Value, base string, tree any) Widget {
	path := doc.Join(base, sf.name)
	f := newField(owner, sf, def, path)
	t := sf.field.Type
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch {
	case t == rawMessage:
	case t.Kind() == reflect.Struct:
		return Widget{Group: &Group{Path: path, Label: f.Label, Help: f.Help, Widgets: Describe(t, valueOrNil(def), path, tree)}}
	case t.Kind() == reflect.Slice && elem(t).Kind() == reflect.Struct && scalarStruct(elem(t)):
		return Widget{Table: newTable(f, elem(t), def, tree)}
	}
	return Widget{Field: f}
}

func elem(t reflect.Type) reflect.Type {
	e := t.Elem()
	for e.Kind() == reflect.Pointer {
		e = e.Elem()
	}
	return e
}

// scalarStruct reports whether every field of t fits in a table cell.
func scalarStruct(t reflect.Type) bool {
	for _, sf := range fields(t) {
		if kindOf(sf.field.Type, sf.field.Tag) == JSON {
			return false
		}
	}
	return true
}

func valueOrNil(v reflect.Value) any {
	if !v.IsValid() {
		return nil
	}
	if v.Kind() == reflect.Pointer && v.IsNil() {
		return nil
	}
	return v.Interface()
}

func newField(owner string, sf structField, def reflect.Value, path string) *Field {
	tag := sf.field.Tag
	f := &Field{Path: path, ID: ID(path), Name: sf.name, Label: Label(owner, sf.name), Kind: kindOf(sf.field.Type, tag),
		Unit: tag.Get("unit"), Help: tag.Get("help"), Optional: sf.omitEmpty}
	if s := tag.Get("min"); s != "" {
		if x, err := strconv.ParseFloat(s, 64); err == nil {
			f.Min = &x
		}
	}
	if s := tag.Get("max"); s != "" {
		if x, err := strconv.ParseFloat(s, 64); err == nil {
			f.Max = &x
		}
	}
	if s := tag.Get("enum"); s != "" {
		f.Enum = strings.Split(s, ",")
	}
	if def.IsValid() {
		f.Default = Text(doc.FromGo(def.Interface()), f.Kind)
	}
	return f
}

func kindOf(t reflect.Type, tag reflect.StructTag) Kind {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t == rawMessage {
		return JSON
	}
	switch t.Kind() {
	case reflect.Float32, reflect.Float64:
		return Number
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return Integer
	case reflect.String:
		if tag.Get("enum") != "" {
			return Enum
		}
		return String
	case reflect.Bool:
		return Bool
	case reflect.Slice, reflect.Array:
		switch k := kindOf(t.Elem(), ""); k {
		case Number, Integer:
			return NumberList
		case String:
			return StringList
		}
	}
	return JSON
}

func newTable(f *Field, et reflect.Type, def reflect.Value, tree any) *Table {
	tb := &Table{Path: f.Path, ID: f.ID, Label: f.Label, Help: f.Help}
	owner := et.Name()
	for _, sf := range fields(et) {
		tb.Columns = append(tb.Columns, newField(owner, sf, reflect.Value{}, sf.name))
	}
	for i := range doc.List(tree, f.Path) {
		row := make([]*Field, len(tb.Columns))
		for c, sf := range fields(et) {
			row[c] = newField(owner, sf, reflect.Value{}, doc.Join(doc.Index(f.Path, i), sf.name))
		}
		tb.Rows = append(tb.Rows, row)
	}
	tb.Template = rowTemplate(et, def)
	return tb
}

// rowTemplate is a new row: the first default element when there is one,
// otherwise the zero element with every lower bound applied.
func rowTemplate(et reflect.Type, def reflect.Value) any {
	if def.IsValid() && def.Kind() == reflect.Slice && def.Len() > 0 {
		return doc.FromGo(def.Index(0).Interface())
	}
	v := reflect.New(et).Elem()
	for _, sf := range fields(et) {
		fv := v.FieldByIndex(sf.index)
		if s := sf.field.Tag.Get("min"); s != "" {
			if x, err := strconv.ParseFloat(s, 64); err == nil && x > 0 {
				switch {
				case fv.CanFloat():
					fv.SetFloat(x)
				case fv.CanInt():
					fv.SetInt(int64(x))
				}
			}
		}
		if sf.name == "weight" && fv.CanFloat() && fv.Float() == 0 {
			fv.SetFloat(1) // a share of zero would be an invisible row
		}
	}
	return doc.FromGo(v.Interface())
}

// ID is the DOM id of the input for path.
func ID(path string) string {
	var b strings.Builder
	b.WriteString("f-")
	dash := false
	for _, r := range path {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' {
			b.WriteRune(r)
			dash = false
		} else if !dash {
			b.WriteByte('-')
			dash = true
		}
	}
	return strings.TrimSuffix(b.String(), "-")
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
