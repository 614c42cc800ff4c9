package reviewfile_test

import (
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/leasesim/leasesim/reviewfile"
)

// TestParse: what each line of a small file sets, and, for each way a
// file can be wrong, the line and the words of the error.
func TestParse(t *testing.T) {
	got, err := reviewfile.Parse(strings.NewReader("deployment:\n  preset: kubernetes # a comment\n  nodes: 3\ncandidates:\n  candidates: 15s:60s:5s\nprices:\n  cost_missed_line: 0.40\n"))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"preset=kubernetes@2", "nodes=3@3", "candidates=15s:60s:5s@5", "cost-missed-line=0.40@7"}
	if bom, err := reviewfile.Parse(strings.NewReader("\ufeffdeployment:\n  preset: kubernetes\n")); err != nil || len(bom) != 1 || bom[0].Line != 2 {
		t.Errorf("a file after a byte order mark: %+v, %v", bom, err)
	}
	for _, empty := range []string{"", "# only a comment\n", "---", "---\n...\n"} {
		if s, err := reviewfile.Parse(strings.NewReader(empty)); err != nil || len(s) != 0 {
			t.Errorf("%q, an empty file or document: %+v, %v, want nothing set", empty, s, err)
		}
	}
	if len(got) != len(want) {
		t.Fatalf("%d settings %+v, want %d", len(got), got, len(want))
	}
	for i, s := range got {
		if g := s.Flag + "=" + s.Value + "@" + strconv.Itoa(s.Line); g != want[i] {
			t.Errorf("setting %d: %s, want %s", i, g, want[i])
		}
	}

	bad := []struct {
		text string
		line int
		msg  string
	}{
		{"deployment:\n  lease: 15s\nfailure:\n  outage: 30s\n", 3, `unknown section "failure": want one of deployment, schedule, failures, candidates, prices, study`},
		{"deployment:\n  leese: 15s\n", 2, `unknown key "leese" in deployment: want one of preset, tick, nodes, lease, renewal, retry_period, renew_deadline, jitter, fencing, quorum, protocol, lock_delay, acquire_wait, disconnect_delay, lock_at_least_for, fire_spread, using_db_time, or a lock's option, named as its flag is (session_ttl for --session-ttl)`},
		{"deployment:\n  lease: 15s\n  nodes: 3\n  lease: 20s\n", 4, "deployment.lease is given twice"},
		// Every key is its flag's name: the keys of old, a dashed key, a
		// key in another section, each say what to write.
		{"failures:\n  per_year: 8\n", 2, `unknown key "per_year" in failures: the key is outages_per_year, the name of the flag it sets (--outages-per-year)`},
		{"candidates:\n  lease: 15s:60s:5s\n", 2, `unknown key "lease" in candidates: the key is candidates, the name of the flag it sets (--candidates)`},
		{"prices:\n  missed_line: 1\n", 2, `unknown key "missed_line" in prices: the key is cost_missed_line, the name of the flag it sets (--cost-missed-line)`},
		{"failures:\n  outages-per-year: 8\n", 2, `unknown key "outages-per-year" in failures: write it outages_per_year, the flag's name with underscores for dashes`},
		{"deployment:\n  outages_per_year: 8\n", 2, `unknown key "outages_per_year" in deployment: outages_per_year is a key of section failures`},
		{"candidates:\n  candidates:\n    - 15s\n    - 20s\n", 3, "candidates.candidates: want one value, as --candidates takes it"},
		{"candidates:\n  candidates:\n", 2, "candidates.candidates: want one value, as --candidates takes it"},
		{"deployment: kubernetes\n", 1, "section deployment: want a mapping of keys to values"},
		{"- deployment\n", 1, "want a mapping of sections (deployment, schedule, failures, candidates, prices, study)"},
		{"deployment:\n  lease: 15s\n nodes: 3\n", 2, "not YAML: did not find expected key"}, // the YAML parser's line: the mapping it was in
		{"deployment:\n  nodes: 3\n---\nschedule:\n  period: 7\n", 3, `a second YAML document: a review file is one document, want no "---" after its first`},
		{"deployment:\n  nodes: 3\n---\n", 3, `a second YAML document: a review file is one document, want no "---" after its first`},
		{"deployment:\n  nodes: 3\n---\n]\n", 3, "not YAML: did not find expected node content"}, // the parser's line, as above
		{"deployment:\n  nodes: 3\nschedule:\n  period: 7\ndeployment:\n  lease: 4\n", 5, "section deployment is given twice (first at line 1): want each section once"},
		{"deployment:\n  nodes: !foo 3\n", 2, "tag !foo: a review file takes no tags, want each value as its flag takes it"},
		{"deployment:\n  nodes: !!int 3\n", 2, "tag !!int: a review file takes no tags, want each value as its flag takes it"},
		{"!!map\ndeployment:\n  nodes: 3\n", 1, "tag !!map: a review file takes no tags, want each value as its flag takes it"},
		{"deployment:\n  nodes: 3\n  lease: \"a\x01b\"\n", 3, "control character U+0001: YAML allows none"},
		{"deployment:\n  nodes: 3\n\n  lease: \xff\xfe\n", 4, "byte 0xff is not UTF-8: want UTF-8 text"},
		{"\xff\xfed\x00e\x00", 1, "byte 0xff is not UTF-8: want UTF-8 text"},             // UTF-16, which the YAML parser would take
		{"deployment:\n  lease: \"15s\n", 2, "not YAML: found unexpected end of stream"}, // no line in the parser's message: the file's last
		// A candidate list whose lines YAML would join into one candidate.
		{"candidates:\n  candidate_list: >\n    lease=60s renew_deadline=40s\n    preset=openshift\n", 2, "candidates.candidate_list is a folded block (>), which joins its lines into one candidate: write it as a literal block (candidate_list: |), a candidate a line, or on one line with ';' between the candidates"},
		{"candidates:\n  candidate_list: >-\n    lease=60s\n", 2, "candidates.candidate_list is a folded block (>), which joins its lines into one candidate: write it as a literal block (candidate_list: |), a candidate a line, or on one line with ';' between the candidates"},
		{"candidates:\n  candidate_list: lease=60s renew_deadline=40s\n    preset=openshift\n", 2, "candidates.candidate_list continues on line 3, and YAML joins the lines of a value that is no literal block into one candidate: write it as a literal block (candidate_list: |), a candidate a line, or on one line with ';' between the candidates"},
		{"candidates:\n  candidate_list:\n    lease=60s\n\n    preset=openshift\nprices:\n  cost_handover: 1\n", 3, "candidates.candidate_list continues on line 5, and YAML joins the lines of a value that is no literal block into one candidate: write it as a literal block (candidate_list: |), a candidate a line, or on one line with ';' between the candidates"},
		{"candidates:\n  candidate_list: \"lease=60s\r\n    preset=openshift\"\n", 2, "candidates.candidate_list continues on line 3, and YAML joins the lines of a value that is no literal block into one candidate: write it as a literal block (candidate_list: |), a candidate a line, or on one line with ';' between the candidates"},
		{"candidates:\n  candidate_list: 'lease=60s\n    preset=openshift'\n  candidates: 15s\n", 2, "candidates.candidate_list continues on line 3, and YAML joins the lines of a value that is no literal block into one candidate: write it as a literal block (candidate_list: |), a candidate a line, or on one line with ';' between the candidates"},
	}
	for _, tt := range bad {
		_, err := reviewfile.Parse(strings.NewReader(tt.text))
		var e *reviewfile.Error
		if !errors.As(err, &e) || e.Line != tt.line || e.Msg != tt.msg {
			t.Errorf("%q: %v, want line %d: %s", tt.text, err, tt.line, tt.msg)
		}
	}
}

// TestExample: the example parses, and sets each flag it names once.
func TestExample(t *testing.T) {
	settings, err := reviewfile.Parse(strings.NewReader(reviewfile.Example))
	if err != nil {
		t.Fatal(err)
	}
	if len(settings) < 15 {
		t.Errorf("the example sets %d keys: %+v", len(settings), settings)
	}
}

// TestKeysAreFlagNames: every key is the name of the report flag it sets
// with underscores for dashes, and the key of each flag a review gives,
// outages_per_year among them, is read as that flag.
func TestKeysAreFlagNames(t *testing.T) {
	for _, k := range reviewfile.Keys() {
		if k.Name != strings.ReplaceAll(k.Flag, "-", "_") {
			t.Errorf("%s.%s sets --%s: want the key %s", k.Section, k.Name, k.Flag, strings.ReplaceAll(k.Flag, "-", "_"))
		}
	}
	got, err := reviewfile.Parse(strings.NewReader("failures:\n  outages_per_year: 8\n  outage_mix: 5s:1\ncandidates:\n  candidate_renew_deadline: 10s\nprices:\n  cost_handover: 5\n"))
	if err != nil {
		t.Fatal(err)
	}
	var flags []string
	for _, s := range got {
		flags = append(flags, s.Flag)
	}
	if want := "outages-per-year outage-mix candidate-renew-deadline cost-handover"; strings.Join(flags, " ") != want {
		t.Errorf("flags %q, want %q", flags, want)
	}
}

// TestKeysAreUnique: no two keys of a section, and no two keys anywhere
// set the same flag.
func TestKeysAreUnique(t *testing.T) {
	names, flags := map[string]bool{}, map[string]bool{}
	for _, k := range reviewfile.Keys() {
		if names[k.Section+"."+k.Name] || flags[k.Flag] {
			t.Errorf("%+v twice", k)
		}
		names[k.Section+"."+k.Name], flags[k.Flag] = true, true
	}
}

// FuzzParse: any text is a list of settings or an *Error at a line of it
// (or at none, where the YAML parser gives none); nothing panics. Lines
// are counted as YAML counts them: a lone carriage return ends one too.
func FuzzParse(f *testing.F) {
	f.Add(reviewfile.Example)
	f.Add("deployment:\n  lease: [1, 2]\n")
	f.Add("a: &x {b: *x}\n")
	f.Add("---") // an empty document, whose null the YAML parser puts on line 2
	f.Add("\r0") // a lone carriage return ends line 1, as YAML reads it
	f.Fuzz(func(t *testing.T, text string) {
		settings, err := reviewfile.Parse(strings.NewReader(text))
		var e *reviewfile.Error
		lines := strings.Count(text, "\n") + strings.Count(text, "\r") - strings.Count(text, "\r\n") + 1
		switch {
		case err != nil && (!errors.As(err, &e) || e.Line < 0 || e.Line > lines):
			t.Errorf("%q: error %v is not at a line of it (or at none, 0)", text, err)
		case err == nil:
			for _, s := range settings {
				if s.Line < 1 || s.Flag == "" {
					t.Errorf("%q: setting %+v", text, s)
				}
			}
		}
	})
}

// TestArg: a file a review names by a relative path is found beside the
// review; an absolute path, a value that names no file and a distribution
// that is not empirical stay as written.
func TestArg(t *testing.T) {
	key := func(flag string) reviewfile.Key {
		for _, k := range reviewfile.Keys() {
			if k.Flag == flag {
				return k
			}
		}
		t.Fatalf("no key for --%s", flag)
		return reviewfile.Key{}
	}
	for _, tt := range []struct{ flag, value, want string }{
		{"outage-history", "outages.txt", "ops/review/outages.txt"},
		{"outage-history", "../incidents/outages.txt", "ops/incidents/outages.txt"},
		{"outage-history", "/var/outages.txt", "/var/outages.txt"},
		{"downtime", "empirical:outages.txt", "empirical:ops/review/outages.txt"},
		{"downtime", "empirical:/var/outages.txt", "empirical:/var/outages.txt"},
		{"uptime", "geometric:72h", "geometric:72h"},
		{"candidates", "10s:60s:5s", "10s:60s:5s"},
		{"candidate-renew-deadline", "10s,40s", "10s,40s"},
		{"candidate-retry-period", "2s", "2s"},
	} {
		s := reviewfile.Setting{Key: key(tt.flag), Value: tt.value}
		if got := s.Arg("ops/review"); got != tt.want {
			t.Errorf("--%s %q in ops/review: %q, want %q", tt.flag, tt.value, got, tt.want)
		}
	}
}

// TestLineOf: a literal block's lines are the file's lines after its
// key's; a plain or folded value's lines, which YAML joins, are the key's.
func TestLineOf(t *testing.T) {
	got, err := reviewfile.Parse(strings.NewReader("candidates:\n  candidates: 15s\n  candidate_list: |\n    lease=45s\n\n    preset=openshift\n  candidate_retry_period: >\n    2s\n"))
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		setting, line, want int
		literal             bool
	}{{0, 0, 2, false}, {1, 0, 4, true}, {1, 2, 6, true}, {2, 0, 7, false}} {
		if s := got[tt.setting]; s.Literal != tt.literal || s.LineOf(tt.line) != tt.want {
			t.Errorf("%s: literal %t, line %d of it at %d; want %t, %d", s.Name, s.Literal, tt.line, s.LineOf(tt.line), tt.literal, tt.want)
		}
	}
}

// TestCandidateListKeptApart: a candidate list on one line, plain or
// quoted, its line followed by comments and blank lines, or a literal
// block, is read as written: no line of it is joined to another.
func TestCandidateListKeptApart(t *testing.T) {
	for _, tt := range []struct{ text, want string }{
		{"candidates:\n  candidate_list: lease=60s; preset=openshift  # two\n\n  # the leases\n  candidates: 15s\n", "lease=60s; preset=openshift"},
		{"candidates:\n  candidate_list:\n    lease=60s; preset=openshift\n# the end\n", "lease=60s; preset=openshift"},
		{"candidates:\n  candidate_list: \"lease=60s; preset=openshift\"\nprices:\n  cost_handover: 1\n", "lease=60s; preset=openshift"},
		{"candidates:\n  candidate_list: |\n    lease=60s renew_deadline=40s\n    preset=openshift\n", "lease=60s renew_deadline=40s\npreset=openshift\n"},
	} {
		got, err := reviewfile.Parse(strings.NewReader(tt.text))
		if err != nil || len(got) == 0 || got[0].Value != tt.want {
			t.Errorf("%q: %+v, %v; want the value %q", tt.text, got, err, tt.want)
		}
	}
}

// TestFailureMixList: a failure mix written as a YAML list of mappings is
// the flag's text, its entries separated by "; ", with the line of each
// entry and of each of its keys; one written as the flag's text is taken
// as it is; a list that is not of mappings of single words is refused at
// its line.
func TestFailureMixList(t *testing.T) {
	got, err := reviewfile.Parse(strings.NewReader("failures:\n  failure_mix:\n    - kind: isolate\n      scope: every-node\n      lengths: 30s:0.8,5m:0.2\n      per_year: 12\n    - per_year: 4\n      kind: pause\n      scope: leader\n      lengths: 20s\n"))
	if err != nil || len(got) != 1 {
		t.Fatalf("%+v, %v", got, err)
	}
	s := got[0]
	if want := "kind=isolate scope=every-node lengths=30s:0.8,5m:0.2 per_year=12; per_year=4 kind=pause scope=leader lengths=20s"; s.Value != want || s.Flag != "failure-mix" || s.Line != 2 {
		t.Errorf("value %q of --%s at line %d, want %q of --failure-mix at line 2", s.Value, s.Flag, s.Line, want)
	}
	for _, tt := range []struct {
		entry int
		key   string
		line  int
	}{{0, "kind", 3}, {0, "per_year", 6}, {1, "per_year", 7}, {1, "lengths", 10}, {1, "drift", 7}, {2, "kind", 2}} {
		if l := s.ItemLine(tt.entry, tt.key); l != tt.line {
			t.Errorf("entry %d's %s at line %d, want %d", tt.entry, tt.key, l, tt.line)
		}
	}
	if got, err := reviewfile.Parse(strings.NewReader("failures:\n  failure_mix: kind=isolate scope=leader lengths=5 per_year=1\n")); err != nil || got[0].Value != "kind=isolate scope=leader lengths=5 per_year=1" {
		t.Errorf("one line: %+v, %v", got, err)
	}
	for _, tt := range []struct {
		text string
		line int
	}{
		{"failures:\n  failure_mix: []\n", 2},
		{"failures:\n  failure_mix:\n    - isolate\n", 3},
		{"failures:\n  failure_mix:\n    - kind: isolate\n      scope: every node\n", 4},
		{"failures:\n  failure_mix:\n    - kind: isolate\n      kind: pause\n", 4},
		{"failures:\n  failure_mix:\n    - kind:\n", 3},
	} {
		_, err := reviewfile.Parse(strings.NewReader(tt.text))
		var fe *reviewfile.Error
		if !errors.As(err, &fe) || fe.Line != tt.line {
			t.Errorf("%q: %v, want an error at line %d", tt.text, err, tt.line)
		}
	}
}

// TestReadFile: a review file read from its path gives its settings with
// their lines; a refused line is named path:line, a file past
// MaxFileBytes is refused whole; a SettingError names each setting it
// concerns, file, line and key, before its message.
func TestReadFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "r.yaml")
	if err := os.WriteFile(path, []byte("deployment:\n  nodes: 3\n  lease: 4\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	settings, err := reviewfile.ReadFile(path)
	if err != nil || len(settings) != 2 || settings[1].Flag != "lease" || settings[1].Line != 3 {
		t.Fatalf("ReadFile = %+v, %v; want nodes and lease, lease on line 3", settings, err)
	}
	e := &reviewfile.SettingError{At: []reviewfile.At{{File: path, Line: 3, Key: settings[1].Key}, {File: path, Line: 2, Key: settings[0].Key}}, Msg: "--lease 4 …"}
	if want := path + ":3: deployment.lease, " + path + ":2: deployment.nodes: --lease 4 …"; e.Error() != want {
		t.Errorf("SettingError = %q, want %q", e.Error(), want)
	}
	if err := os.WriteFile(path, []byte("deployment:\n  colour: red\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := reviewfile.ReadFile(path); err == nil || !strings.HasPrefix(err.Error(), path+":2: ") {
		t.Errorf("ReadFile of an unknown key = %v, want it named at %s:2", err, path)
	}
	if err := os.WriteFile(path, make([]byte, reviewfile.MaxFileBytes+1), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := reviewfile.ReadFile(path); err == nil || err.Error() != "review file: "+path+": longer than 1024 KiB, the most a review file may hold" {
		t.Errorf("ReadFile of %d bytes = %v", reviewfile.MaxFileBytes+1, err)
	}
}
