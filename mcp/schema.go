package mcp

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/memory-lsp/memory-lsp/core/category"
	"github.com/memory-lsp/memory-lsp/core/memory"
)

// prop is one input property, in the order the schema lists it.
type prop struct {
	name   string
	schema *jsonschema.Schema
}

// object is a tool's input schema. Unknown arguments are refused (a
// misspelt "catgory" must not silently store somewhere else), and the schema
// says so, so clients that check arguments refuse them first.
func object(required []string, props ...prop) *jsonschema.Schema {
	s := &jsonschema.Schema{
		Type:                 "object",
		Properties:           map[string]*jsonschema.Schema{},
		Required:             required,
		AdditionalProperties: &jsonschema.Schema{Not: &jsonschema.Schema{}},
	}
	for _, p := range props {
		s.Properties[p.name] = p.schema
		s.PropertyOrder = append(s.PropertyOrder, p.name)
	}
	return s
}

func str(desc string) *jsonschema.Schema {
	return &jsonschema.Schema{Type: "string", Description: desc}
}

func integer(desc string, min float64) *jsonschema.Schema {
	return &jsonschema.Schema{Type: "integer", Description: desc, Minimum: &min}
}

// categoryEnum is HackLM's enum of the five category names.
func categoryEnum(desc string) *jsonschema.Schema {
	s := str(desc)
	for _, c := range category.All {
		s.Enum = append(s.Enum, c.String())
	}
	return s
}

// outputSchema infers a tool's output schema from the Go type of its
// structured result, so the two cannot drift apart.
func outputSchema[T any]() *jsonschema.Schema {
	s, err := jsonschema.For[T](nil)
	if err != nil {
		panic(fmt.Sprintf("mcp: output schema of %T: %v", *new(T), err))
	}
	return s
}

// decodeArgs reads a tool's arguments into v. The SDK leaves validation to
// handlers registered without a Go input type, which is what lets refusals be
// worded as the CLI words them ("category: unknown category …") and let a
// category match in any letter case, as everywhere else.
func decodeArgs(raw json.RawMessage, v any, schema *jsonschema.Schema) error {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return nil
	}
	if raw[0] != '{' {
		return &memory.InputError{Field: "arguments", Problem: "the arguments must be one JSON object"}
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	err := dec.Decode(v)
	if err == nil {
		return nil
	}
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) && te.Field != "" {
		field := te.Field[strings.LastIndexByte(te.Field, '.')+1:]
		want := "a string"
		if p := schema.Properties[field]; p != nil {
			switch p.Type {
			case "integer":
				want = "a whole number"
			case "number":
				want = "a number"
			}
		}
		return &memory.InputError{Field: field, Problem: fmt.Sprintf("must be %s, not a JSON %s", want, te.Value)}
	}
	if f, ok := strings.CutPrefix(err.Error(), "json: unknown field "); ok {
		problem := "unknown argument; this tool takes none"
		if names := slices.Clone(schema.PropertyOrder); len(names) > 0 {
			problem = "unknown argument; the arguments are " + strings.Join(names, ", ")
		}
		return &memory.InputError{Field: strings.Trim(f, `"`), Problem: problem}
	}
	return &memory.InputError{Field: "arguments", Problem: err.Error()}
}
