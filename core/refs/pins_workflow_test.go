package refs

import (
	"reflect"
	"testing"
)

func TestParseWorkflowPins(t *testing.T) {
	src := `name: ci
on: [push]
jobs:
  lint:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - uses: actions/setup-go@v5
        with:
          go-version-file: go.mod
      - name: golangci-lint
        uses: golangci/golangci-lint-action@v8
        with:
          version: v2.9 # pinned
      - uses: actions/cache@v4
        with:
          version: 3
  test:
    strategy:
      matrix:
        node-version: [20.x, "22"]
        python-version:
          - '3.11'
          - "3.12"
          - ${{ env.PY }}
        os: [ubuntu-latest]
    steps:
      - uses: actions/setup-node@v4
        with:
          node-version: ${{ matrix.node-version }}
      - uses: pnpm/action-setup@v4
        with:
          version: 9.12.1
      - uses: actions/setup-node@v4
        with:
          node-version: lts/*
`
	got := ParseWorkflowPins(".github/workflows/ci.yml", []byte(src))
	f := ".github/workflows/ci.yml"
	want := []Pinned{
		{"golangci-lint", Pin{Value: "v2.9", File: f, Line: 14}},
		{"node", Pin{Value: "20.x", File: f, Line: 21}},
		{"node", Pin{Value: "22", File: f, Line: 21}},
		{"python", Pin{Value: "3.11", File: f, Line: 23}},
		{"python", Pin{Value: "3.12", File: f, Line: 24}},
		{"pnpm", Pin{Value: "9.12.1", File: f, Line: 33}},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("ParseWorkflowPins:\n got %+v\nwant %+v", got, want)
	}
	for p, want := range map[string]bool{
		".github/workflows/ci.yml": true, ".github/workflows/a.yaml": true,
		".github/workflows/x/ci.yml": false, "web/.github/workflows/ci.yml": false, ".github/dependabot.yml": false,
	} {
		if got := WorkflowFile(p); got != want {
			t.Errorf("WorkflowFile(%q) = %v, want %v", p, got, want)
		}
	}
}
