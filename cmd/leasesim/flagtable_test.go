package main

import (
	"fmt"
	"maps"
	"os"
	"strings"
	"testing"

	"github.com/leasesim/leasesim/internal/golden"
	"github.com/leasesim/leasesim/model"
)

// The generated flag table's first and last lines in docs/commands.md.
const (
	flagTableBegin = "<!-- The table below is generated from the model's parameter table (model/internal/paramgen): go test ./cmd/leasesim -run TestFlagTable -update -->"
	flagTableEnd   = "<!-- End of the generated table. -->"
)

// countUnits are the units of the parameters that are whole numbers but
// no time: every other parameter's unit follows from its kind.
var countUnits = map[model.Param]string{
	model.Nodes:    "nodes",
	model.Down:     "nodes",
	model.DownFrom: "node",
	model.Drift:    "‰",
}

// flagTable is, with units the units of the counts (countUnits), the Markdown table of the model's flags: each parameter's
// flag, unit, default (model.Default) and meaning, the very text of its
// flag's help (model.Param.Doc).
func flagTable(units map[model.Param]string) (string, error) {
	var b strings.Builder
	b.WriteString("| flag | unit | default | meaning |\n|---|---|---|---|\n")
	def := model.Default()
	for _, p := range model.Params() {
		var unit string
		switch {
		case p.Bool():
			unit = "toggle"
		case p.Names() != nil:
			unit = "name: " + strings.Join(p.Names(), ", ")
		case p.Time() == model.Duration:
			unit = "rounds"
		case p.Time() == model.Point:
			unit = "round"
		default:
			var ok bool
			if unit, ok = units[p]; !ok {
				return "", fmt.Errorf("parameter %s: no unit: give it one in countUnits", p.Name())
			}
		}
		doc := strings.ReplaceAll(p.Doc(), "|", `\|`)
		fmt.Fprintf(&b, "| `--%s` | %s | %s | %s |\n", p.Flag(), unit, p.AppendValue(nil, def.Get(p)), doc)
	}
	return b.String(), nil
}

// TestFlagTable: docs/commands.md's table of the model's flags is what
// flagTable makes of the parameter table, so the page and every flag's
// help say the same of each parameter; -update rewrites it.
func TestFlagTable(t *testing.T) {
	const path = "../../docs/commands.md"
	table, err := flagTable(countUnits)
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	page := string(data)
	before, rest, ok := strings.Cut(page, flagTableBegin+"\n")
	shown, after, ok2 := strings.Cut(rest, flagTableEnd)
	if !ok || !ok2 {
		t.Fatalf("docs/commands.md has no generated flag table between %q and %q", flagTableBegin, flagTableEnd)
	}
	want := "\n" + table + "\n"
	if shown == want {
		return
	}
	if !golden.Update() {
		t.Fatalf("docs/commands.md's flag table is not the parameter table's: go test ./cmd/leasesim -run TestFlagTable -update\nit shows:\n%s\nthe table makes:\n%s", shown, want)
	}
	if err := os.WriteFile(path, []byte(before+flagTableBegin+"\n"+want+flagTableEnd+after), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestFlagTableUnits: a parameter that is a whole number but no time
// and has no unit is refused, not shown without one.
func TestFlagTableUnits(t *testing.T) {
	for p := range countUnits {
		if p.Bool() || p.Names() != nil || p.Time() != model.NotTime {
			t.Errorf("countUnits gives %s a unit, which its kind already says", p.Name())
		}
	}
	units := maps.Clone(countUnits)
	delete(units, model.Drift)
	if _, err := flagTable(units); err == nil || !strings.Contains(err.Error(), "drift") {
		t.Errorf("flagTable without drift's unit: %v, want an error naming drift", err)
	}
}
