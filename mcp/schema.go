package mcp

import (
	"fmt"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/memory-lsp/memory-lsp/core/category"
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

// categoryForms says which spellings of a category the server reads
// (category.Parse): the enum lists the canonical ones.
const categoryForms = "Any letter case, the plural (Decisions) and the file name (decisions.md) are accepted too"

func str(desc string) *jsonschema.Schema {
	return &jsonschema.Schema{Type: "string", Description: desc}
}

func integer(desc string, min float64) *jsonschema.Schema {
	return &jsonschema.Schema{Type: "integer", Description: desc, Minimum: &min}
}

// categoryEnum is HackLM's enum of the five category names, kept as
// HackLM's tool schema has it; the description says what else the server
// accepts, so that the schema does not contradict it (issue 28).
func categoryEnum(desc string) *jsonschema.Schema {
	s := str(desc + ". " + categoryForms)
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
