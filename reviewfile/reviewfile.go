// Package reviewfile reads a review file: the deployment a team runs, its
// batch schedule, the failures it expects, the leases it would consider
// and what each kind of loss costs it, written once and kept beside the
// code so that the review can be run again in CI.
//
// A review file is YAML: a mapping of sections to mappings of keys to
// single values, in one YAML document, each section once. Every key is the
// name of one flag of leasesim report, with underscores for its dashes,
// and takes what that flag takes (Keys lists them), so a review file and a
// command line say the same things the same way, and a flag given on the
// command line wins over the file.
package reviewfile

import (
	"bytes"
	_ "embed"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/leasesim/leasesim/model"
	"github.com/leasesim/leasesim/settings"
	"go.yaml.in/yaml/v3"
)

// Key is one key a review file may hold.
type Key struct {
	Section, Name string
	Flag          string // the report flag it sets, without dashes
	File          FileValue
}

// FileValue says whether a key's value names a file, which a review file
// gives relative to itself, as a team keeps its outage history beside it.
type FileValue int

// The ways a value can name a file.
const (
	NoFile        FileValue = iota
	Path                    // the value is a file's path
	EmpiricalPath           // a distribution, which names a file after "empirical:"
)

// Keys returns every key of a review file, section by section. A key is
// the name of the report flag it sets with underscores for its dashes
// (--outages-per-year is outages_per_year), so a section lists flags
// alone: a key for a new flag is the flag's name added to its section.
func Keys() []Key {
	var keys []Key
	add := func(section string, flags ...string) {
		for _, flag := range flags {
			keys = append(keys, Key{Section: section, Name: KeyName(flag), Flag: flag})
		}
	}
	add("deployment", "preset", "tick", "nodes", "lease", "renewal", "retry-period", "renew-deadline", "jitter", "fencing", "quorum",
		"protocol", "lock-delay", "acquire-wait", "disconnect-delay", "lock-at-least-for", "fire-spread", "using-db-time")
	for _, f := range settings.LockFlags() { // every lock's options, as settings.LockRows lists them, but the model's own flags
		if !f.Model {
			add("deployment", f.Name)
		}
	}
	add("schedule", "period", "rounds-per-year", "batch-len", "lines-per-batch", "scheduler", "persistent-trigger", "catch-up-window", "catch-up-once", "idempotency-key", "overlap", "on-cut", "runs-in")
	add("failures", "failure-mix", "outages-per-year", "outage-mix", "outage-history", "incident", "epoch", "outage", "start", "rounds", "down", "down-from")
	for _, p := range model.KindToggles() { // every kind's toggle
		add("failures", p.Flag())
	}
	add("failures", "drift", "service-failover", "uptime", "downtime")
	add("candidates", "candidates", "candidate-renew-deadline", "candidate-retry-period", "candidate-list")
	add("prices", "cost-missed-line", "cost-double-line", "cost-delay-hour", "cost-handover", "currency", "material", "gate")
	add("study", "seed", "replicas", "precision", "max-replicas")
	for i, k := range keys {
		switch k.Flag {
		case "outage-history", "incident":
			keys[i].File = Path
		case "uptime", "downtime":
			keys[i].File = EmpiricalPath
		}
	}
	return keys
}

// KeyName is the review file's key for a report flag: its name with
// underscores for dashes.
func KeyName(flag string) string { return strings.ReplaceAll(flag, "-", "_") }

// formerly maps the keys review files had before every key was its flag's
// name to the flag, so that an old file's error says what to write.
var formerly = map[[2]string]string{
	{"failures", "per_year"}: "outages-per-year", {"failures", "mix"}: "outage-mix", {"failures", "history"}: "outage-history",
	{"candidates", "lease"}: "candidates", {"candidates", "renew_deadline"}: "candidate-renew-deadline", {"candidates", "retry_period"}: "candidate-retry-period",
	{"prices", "missed_line"}: "cost-missed-line", {"prices", "double_line"}: "cost-double-line", {"prices", "delay_hour"}: "cost-delay-hour", {"prices", "handover"}: "cost-handover",
}

// unknownKey says why name is not a key of section, and what to write.
func unknownKey(section, name string) string {
	msg := fmt.Sprintf("unknown key %q in %s", name, section)
	if flag, ok := formerly[[2]string{section, name}]; ok {
		return fmt.Sprintf("%s: the key is %s, the name of the flag it sets (--%s)", msg, KeyName(flag), flag)
	}
	for _, k := range Keys() {
		switch {
		case k.Name != KeyName(name) && k.Name != KeyName(strings.TrimPrefix(name, "--")):
		case k.Section != section:
			return fmt.Sprintf("%s: %s is a key of section %s", msg, k.Name, k.Section)
		default:
			return fmt.Sprintf("%s: write it %s, the flag's name with underscores for dashes", msg, k.Name)
		}
	}
	if section == "deployment" { // the locks' options, too many to list in one line, by the rule that names them
		return fmt.Sprintf("%s: want one of %s, or a lock's option, named as its flag is (session_ttl for --session-ttl)", msg, strings.Join(slices.DeleteFunc(keyNames(section), isLockOption), ", "))
	}
	return fmt.Sprintf("%s: want one of %s", msg, strings.Join(keyNames(section), ", "))
}

// isLockOption reports whether a deployment key is a lock's option, not
// one of the model's flags (settings.LockFlags).
func isLockOption(key string) bool {
	return slices.ContainsFunc(settings.LockFlags(), func(f settings.LockFlag) bool { return !f.Model && KeyName(f.Name) == key })
}

// Setting is one value of a review file and where it was written.
type Setting struct {
	Key
	Value string // as written
	Line  int
	// Literal says the value is a literal block (key: |), whose lines
	// are the file's lines after Line, newlines kept: a list written a
	// line an item.
	Literal bool
	// Items are the entries of a value written as a YAML list of
	// mappings (failure_mix), each the line it starts on and the line of
	// each of its keys; Value is then the flag's text of them, the
	// entries separated by "; ", each "key=value …".
	Items []Item
}

// Item is one entry of a value written as a YAML list of mappings: the
// line it starts on, and the line of each of its keys.
type Item struct {
	Line int
	Keys map[string]int
}

// ItemLine is the line of key in entry i of the value (from 0): the
// key's own line, else the entry's, else the setting's.
func (s Setting) ItemLine(i int, key string) int {
	if i < 0 || i >= len(s.Items) {
		return s.Line
	}
	if l, ok := s.Items[i].Keys[key]; ok {
		return l
	}
	return s.Items[i].Line
}

// LineOf is the file's line of line i (from 0) of the value: of a
// literal block, the i-th line after the key's; of any other value,
// whose lines YAML joins, the key's line.
func (s Setting) LineOf(i int) int {
	if s.Literal {
		return s.Line + 1 + i
	}
	return s.Line
}

// Arg is the setting's value as the flag takes it from the working
// directory, for a review file in directory dir: a file it names by a
// relative path is found in dir.
func (s Setting) Arg(dir string) string {
	prefix, path := "", s.Value
	switch s.File {
	case NoFile:
		return s.Value
	case EmpiricalPath:
		rest, ok := strings.CutPrefix(s.Value, "empirical:")
		if !ok {
			return s.Value
		}
		prefix, path = "empirical:", rest
	}
	if path == "" || filepath.IsAbs(path) {
		return s.Value
	}
	return prefix + filepath.Join(dir, path)
}

// Error is what is wrong with a review file, at a line of it (0 if the
// YAML parser gave none).
type Error struct {
	Line int
	Msg  string
}

func (e *Error) Error() string {
	if e.Line == 0 {
		return e.Msg
	}
	return fmt.Sprintf("line %d: %s", e.Line, e.Msg)
}

// Parse reads a review file. Its error is an *Error naming the line: text
// that is not UTF-8 or holds a control character, a second YAML document,
// a tag (a review file's values are written as on the command line, so
// none needs one), a section or key that is not one of Keys, a section or
// key given twice, or a value that is not a single scalar (a list of
// leases is written as on the command line, "10s:60s:5s", not as a YAML
// list; a list of candidates as a literal block, a candidate a line, and
// never as a value YAML joins the lines of: checkLines). A leading UTF-8
// byte order mark is accepted, as in every file leasesim reads.
func Parse(r io.Reader) ([]Setting, error) {
	text, err := io.ReadAll(r)
	if err != nil {
		return nil, err
	}
	if err := checkText(text); err != nil {
		return nil, err
	}
	dec := yaml.NewDecoder(bytes.NewReader(text))
	var doc yaml.Node
	if err := dec.Decode(&doc); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, nil // an empty file sets nothing
		}
		return nil, &Error{yamlLine(err, text), "not YAML: " + yamlMessage(err)}
	}
	var next yaml.Node
	switch err := dec.Decode(&next); {
	case err == nil:
		return nil, &Error{next.Line, "a second YAML document: a review file is one document, want no \"---\" after its first"}
	case !errors.Is(err, io.EOF):
		return nil, &Error{yamlLine(err, text), "not YAML: " + yamlMessage(err)}
	}
	if n := tagged(&doc); n != nil {
		return nil, &Error{n.Line, fmt.Sprintf("tag %s: a review file takes no tags, want each value as its flag takes it", n.Tag)}
	}
	root := doc.Content[0]
	if root.Kind == yaml.ScalarNode && root.Tag == "!!null" && root.Value == "" {
		return nil, nil // an empty document ("---" alone) sets nothing, as an empty file
	}
	if root.Kind != yaml.MappingNode {
		return nil, &Error{root.Line, "want a mapping of sections (" + strings.Join(sections(), ", ") + ")"}
	}
	var settings []Setting
	seen := map[Key]bool{}
	sectionAt := map[string]int{}
	for i := 0; i < len(root.Content); i += 2 {
		name, body := root.Content[i], root.Content[i+1]
		if !slices.Contains(sections(), name.Value) {
			return nil, &Error{name.Line, fmt.Sprintf("unknown section %q: want one of %s", name.Value, strings.Join(sections(), ", "))}
		}
		if at, ok := sectionAt[name.Value]; ok {
			return nil, &Error{name.Line, fmt.Sprintf("section %s is given twice (first at line %d): want each section once", name.Value, at)}
		}
		sectionAt[name.Value] = name.Line
		if body.Kind != yaml.MappingNode {
			return nil, &Error{body.Line, fmt.Sprintf("section %s: want a mapping of keys to values", name.Value)}
		}
		for j := 0; j < len(body.Content); j += 2 {
			k, v := body.Content[j], body.Content[j+1]
			key, ok := lookup(name.Value, k.Value)
			switch {
			case !ok:
				return nil, &Error{k.Line, unknownKey(name.Value, k.Value)}
			case seen[key]:
				return nil, &Error{k.Line, fmt.Sprintf("%s.%s is given twice", key.Section, key.Name)}
			case key.Flag == "failure-mix" && v.Kind == yaml.SequenceNode:
				value, items, err := entries(key, v)
				if err != nil {
					return nil, err
				}
				seen[key] = true
				settings = append(settings, Setting{Key: key, Value: value, Line: k.Line, Items: items})
				continue
			case v.Kind != yaml.ScalarNode || v.Tag == "!!null":
				return nil, &Error{v.Line, fmt.Sprintf("%s.%s: want one value, as --%s takes it", key.Section, key.Name, key.Flag)}
			}
			if key.Flag == "candidate-list" {
				if err := checkLines(key, v, nextLine(&doc, v.Line), text); err != nil {
					return nil, err
				}
			}
			seen[key] = true
			settings = append(settings, Setting{Key: key, Value: v.Value, Line: v.Line, Literal: v.Style&yaml.LiteralStyle != 0})
		}
	}
	return settings, nil
}

// entries reads a value written as a YAML list of mappings of keys to
// single words (failure_mix): the flag's text of it, its entries separated
// by "; ", each "key=value …" in the order written, and the lines of each.
// What the keys and values mean is the flag's to check.
func entries(key Key, v *yaml.Node) (string, []Item, error) {
	const want = "want a list of mappings, each key: value with one word a value (kind: isolate, scope: every-node, lengths: 30s:0.8,5m:0.2, per_year: 8)"
	if len(v.Content) == 0 {
		return "", nil, &Error{v.Line, fmt.Sprintf("%s.%s: an empty list: %s", key.Section, key.Name, want)}
	}
	var texts []string
	var items []Item
	for i, n := range v.Content {
		if n.Kind != yaml.MappingNode {
			return "", nil, &Error{n.Line, fmt.Sprintf("%s.%s: entry %d: %s", key.Section, key.Name, i+1, want)}
		}
		item := Item{Line: n.Line, Keys: map[string]int{}}
		var fields []string
		for j := 0; j < len(n.Content); j += 2 {
			k, val := n.Content[j], n.Content[j+1]
			switch {
			case k.Kind != yaml.ScalarNode || val.Kind != yaml.ScalarNode || val.Tag == "!!null":
				return "", nil, &Error{k.Line, fmt.Sprintf("%s.%s: entry %d: %s", key.Section, key.Name, i+1, want)}
			case item.Keys[k.Value] != 0:
				return "", nil, &Error{k.Line, fmt.Sprintf("%s.%s: entry %d: %s is given twice: want it once", key.Section, key.Name, i+1, k.Value)}
			case k.Value == "" || strings.ContainsAny(k.Value+val.Value, "=; \t\n") || val.Value == "":
				return "", nil, &Error{k.Line, fmt.Sprintf("%s.%s: entry %d: %s: %q: %s", key.Section, key.Name, i+1, k.Value, val.Value, want)}
			}
			item.Keys[k.Value] = k.Line
			fields = append(fields, k.Value+"="+val.Value)
		}
		texts, items = append(texts, strings.Join(fields, " ")), append(items, item)
	}
	return strings.Join(texts, "; "), items, nil
}

// checkLines refuses a value of key, a list a line, that YAML joins into
// one line, which would run its items together: a folded block (key: >)
// or a value that is not a block written over several lines (plain or
// quoted), which YAML folds the same way. v starts on v.Line; the next
// node of the file starts on line next (0: none). Such a list is written
// as a literal block, an item a line, or on one line with ';' between
// its items.
func checkLines(key Key, v *yaml.Node, next int, text []byte) error {
	const fix = "write it as a literal block (%s: |), a candidate a line, or on one line with ';' between the candidates"
	if v.Style&yaml.LiteralStyle != 0 {
		return nil
	}
	if v.Style&yaml.FoldedStyle != 0 {
		return &Error{v.Line, fmt.Sprintf("%s.%s is a folded block (>), which joins its lines into one candidate: "+fix, key.Section, key.Name, key.Name)}
	}
	lines := strings.Split(strings.NewReplacer("\r\n", "\n", "\r", "\n").Replace(string(text)), "\n") // as YAML counts lines
	if next == 0 {
		next = len(lines) + 1
	}
	for l := v.Line + 1; l < next && l <= len(lines); l++ { // between the value's first line and the next node: the value's own lines, blank lines and comments
		if line := strings.TrimSpace(lines[l-1]); line != "" && !strings.HasPrefix(line, "#") {
			return &Error{v.Line, fmt.Sprintf("%s.%s continues on line %d, and YAML joins the lines of a value that is no literal block into one candidate: "+fix, key.Section, key.Name, l, key.Name)}
		}
	}
	return nil
}

// nextLine is the first line after line on which a node of the tree n
// starts, or 0 if none does.
func nextLine(n *yaml.Node, line int) int {
	next := 0
	if n.Line > line {
		next = n.Line
	}
	for _, c := range n.Content {
		if l := nextLine(c, line); l > 0 && (next == 0 || l < next) {
			next = l
		}
	}
	return next
}

// checkText refuses what the YAML parser refuses without saying where:
// bytes that are not UTF-8 and characters YAML does not allow (control
// characters, U+FFFE and U+FFFF), at their line.
func checkText(text []byte) error {
	line := 1
	for len(text) > 0 {
		r, size := utf8.DecodeRune(text)
		switch {
		case r == utf8.RuneError && size == 1:
			return &Error{line, fmt.Sprintf("byte %#x is not UTF-8: want UTF-8 text", text[0])}
		case r == '\n':
			line++
		case r == '\t', r == '\r', r == 0x85,
			r >= 0x20 && r <= 0x7e, r >= 0xa0 && r <= 0xd7ff, r >= 0xe000 && r <= 0xfffd, r >= 0x10000:
		default:
			return &Error{line, fmt.Sprintf("control character %U: YAML allows none", r)}
		}
		text = text[size:]
	}
	return nil
}

// tagged returns the first node under n that carries an explicit tag
// (!!str 3, !foo 3), or nil.
func tagged(n *yaml.Node) *yaml.Node {
	if n.Style&yaml.TaggedStyle != 0 {
		return n
	}
	for _, c := range n.Content {
		if t := tagged(c); t != nil {
			return t
		}
	}
	return nil
}

func sections() []string {
	var s []string
	for _, k := range Keys() {
		if !slices.Contains(s, k.Section) {
			s = append(s, k.Section)
		}
	}
	return s
}

func keyNames(section string) []string {
	var names []string
	for _, k := range Keys() {
		if k.Section == section {
			names = append(names, k.Name)
		}
	}
	return names
}

func lookup(section, name string) (Key, bool) {
	for _, k := range Keys() {
		if k.Section == section && k.Name == name {
			return k, true
		}
	}
	return Key{}, false
}

// yamlLine and yamlMessage take the line and the message out of the YAML
// parser's error, "yaml: line 3: mapping values are not allowed in this
// context", so that the error names the line the way every other does.
// A message without a line gives the file's last line if the text ended
// too soon ("found unexpected end of stream"), else 0: no line is claimed
// that was not found.
func yamlLine(err error, text []byte) int {
	var line int
	msg := strings.TrimPrefix(err.Error(), "yaml: ")
	if _, e := fmt.Sscanf(msg, "line %d:", &line); e == nil {
		return line
	}
	if strings.Contains(msg, "end of stream") {
		return bytes.Count(bytes.TrimSuffix(text, []byte("\n")), []byte("\n")) + 1
	}
	return 0
}

func yamlMessage(err error) string {
	msg := strings.TrimPrefix(err.Error(), "yaml: ")
	if _, rest, ok := strings.Cut(msg, ": "); ok && strings.HasPrefix(msg, "line ") {
		return rest
	}
	return msg
}

// Example is a commented review file: a 3-node Kubernetes controller
// running the nightly invoicing. "leasesim report --example" prints it.
//
//go:embed example.yaml
var Example string
