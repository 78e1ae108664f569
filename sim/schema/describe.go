package schema

import (
	"reflect"
	"strconv"
	"strings"
)

// Field describes one field of a parameter struct, for documentation and
// for forms that edit it.
type Field struct {
	Name    string   `json:"name"`
	Kind    string   `json:"kind"` // "number", "integer", "string", "bool", "list", "object"
	Unit    string   `json:"unit,omitempty"`
	Help    string   `json:"help,omitempty"`
	Min     *float64 `json:"min,omitempty"`
	Max     *float64 `json:"max,omitempty"`
	Enum    []string `json:"enum,omitempty"`
	Default any      `json:"default,omitempty"`
}

// Describe lists the top-level fields of the struct params points to, with
// its current values as defaults. Fields of embedded structs count as the
// struct's own, as in its JSON.
func Describe(params any) []Field {
	v := reflect.ValueOf(params)
	for v.Kind() == reflect.Pointer {
		v = v.Elem()
	}
	if v.Kind() != reflect.Struct {
		return nil
	}
	var out []Field
	t := v.Type()
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		name, ok := jsonName(f)
		if !ok {
			continue
		}
		if name == "" && f.Anonymous && f.Type.Kind() == reflect.Struct {
			out = append(out, Describe(v.Field(i).Interface())...)
			continue
		}
		if name == "" {
			name = f.Name
		}
		fd := Field{Name: name, Kind: kindOf(f.Type), Unit: f.Tag.Get("unit"), Help: f.Tag.Get("help"),
			Default: v.Field(i).Interface()}
		if s := f.Tag.Get("min"); s != "" {
			x, _ := strconv.ParseFloat(s, 64)
			fd.Min = &x
		}
		if s := f.Tag.Get("max"); s != "" {
			x, _ := strconv.ParseFloat(s, 64)
			fd.Max = &x
		}
		if s := f.Tag.Get("enum"); s != "" {
			fd.Enum = strings.Split(s, ",")
		}
		out = append(out, fd)
	}
	return out
}

func kindOf(t reflect.Type) string {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.Float32, reflect.Float64:
		return "number"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "integer"
	case reflect.String:
		return "string"
	case reflect.Bool:
		return "bool"
	case reflect.Slice, reflect.Array:
		return "list"
	}
	return "object"
}
