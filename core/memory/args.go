package memory

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
)

// DecodeArgs reads the one JSON object of a command's or tool's arguments
// into v (a pointer to a struct of flat fields), for the language server's
// commands and the MCP tools alike. Unknown fields are refused: a misspelt
// "catgory" must not silently store into the default. A missing or null
// argument leaves v at its zero value. Every error is an *InputError naming
// the field, worded the same for every caller; an unknown field's message
// lists the accepted ones, read from v's json tags. A string that is not
// text (invalid UTF-8, a lone surrogate escape) is refused, where decoding
// alone would have replaced it with U+FFFD.
func DecodeArgs(raw json.RawMessage, v any) error {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return nil
	}
	if raw[0] != '{' {
		return &InputError{Field: "arguments", Problem: "the arguments must be one JSON object"}
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	err := dec.Decode(v)
	if err == nil {
		if problem := jsonTextProblem(raw); problem != "" {
			return textError(raw, problem)
		}
		return nil
	}
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) && te.Field != "" {
		// Arguments are flat objects; the path may name an embedded Go struct.
		field := te.Field[strings.LastIndexByte(te.Field, '.')+1:]
		return &InputError{Field: field, Problem: fmt.Sprintf("must be %s, not a JSON %s", jsonKind(te.Type), te.Value)}
	}
	if f, ok := strings.CutPrefix(err.Error(), "json: unknown field "); ok {
		problem := "unknown argument; this call takes none"
		if names := argNames(reflect.TypeOf(v)); len(names) > 0 {
			problem = "unknown argument; the arguments are " + strings.Join(names, ", ")
		}
		return &InputError{Field: strings.Trim(f, `"`), Problem: problem}
	}
	return &InputError{Field: "arguments", Problem: err.Error()}
}

// jsonKind names the JSON value a Go field takes, as a caller writing JSON
// thinks of it.
func jsonKind(t reflect.Type) string {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "a boolean"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "a whole number"
	case reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.Slice, reflect.Array:
		return "an array"
	case reflect.Map, reflect.Struct:
		return "an object"
	}
	return "a " + t.Kind().String()
}

// argNames lists the json names of a struct's fields, embedded structs'
// included, in declaration order.
func argNames(t reflect.Type) []string {
	for t != nil && t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t == nil || t.Kind() != reflect.Struct {
		return nil
	}
	var names []string
	for i := range t.NumField() {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		switch {
		case name == "-":
		case f.Anonymous && name == "":
			names = append(names, argNames(f.Type)...)
		case !f.IsExported():
		case name != "":
			names = append(names, name)
		default:
			names = append(names, f.Name)
		}
	}
	return names
}
