package mcp

import (
	"fmt"

	"github.com/google/jsonschema-go/jsonschema"
)

// schemaOf infers T's JSON schema as the SDK would, then makes it portable:
// a nullable type (["null", X], what Go pointers and slices infer to)
// becomes X. These tools say "not given" by leaving a field out, never by
// null, and some clients map tool schemas onto a dialect with one type per
// property (the Inspector's --strict check flags the array form).
func schemaOf[T any]() *jsonschema.Schema {
	s, err := jsonschema.For[T](nil)
	if err != nil {
		panic(fmt.Sprintf("schema of %T: %v", *new(T), err))
	}
	singleTypes(s)
	return s
}

func singleTypes(s *jsonschema.Schema) {
	if s == nil {
		return
	}
	if len(s.Types) == 2 && s.Types[0] == "null" {
		s.Type, s.Types = s.Types[1], nil
	}
	for _, p := range s.Properties {
		singleTypes(p)
	}
	singleTypes(s.Items)
	singleTypes(s.AdditionalProperties)
}
