package main

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/leasesim/leasesim/cost"
	"github.com/leasesim/leasesim/model"
	"github.com/leasesim/leasesim/model/parse"
	"github.com/leasesim/leasesim/settings"
	"github.com/leasesim/leasesim/study"
)

// candidateKeys is what an entry of --candidate-list may set besides a
// preset: the lease settings, the node count, fencing and the trigger
// policy (cost.Candidate), each by its parameter's name.
var candidateKeys = []model.Param{model.Lease, model.RenewDeadline, model.RetryPeriod, model.Nodes, model.Fencing,
	model.PersistentTrigger, model.CatchUpWindow, model.CatchUpOnce, model.IdempotencyKey, model.Overlap}

// candidateListSyntax says what --candidate-list takes.
const candidateListSyntax = "candidates, one a line or separated by ';', each KEY=VALUE… (spaces or commas between): preset=NAME and any of lease, renew_deadline, retry_period, nodes, fencing, persistent_trigger, catch_up_window, catch_up_once, idempotency_key, overlap, each as its flag takes it; what an entry leaves out is the deployment's, a preset's lease settings are taken before the keys; # starts a comment"

// maxCandidateList bounds the entries of --candidate-list, as a list of
// values is bounded.
const maxCandidateList = 1000

// candidateEntry is one entry of --candidate-list, as written and read:
// its text, its number (from 1, which an error names, and where finds
// its line by), the preset it starts from, if any, and the settings it
// gives, in rounds.
type candidateEntry struct {
	text      string
	n         int
	preset    settings.Preset
	hasPreset bool
	set       []candidateSetting
}

// candidateSetting is one KEY=VALUE of an entry, in rounds.
type candidateSetting struct {
	p model.Param
	v int
}

// entryText is an entry of a candidate list as written, and the line of
// the list it is on, from 0.
type entryText struct {
	text string
	line int
}

// splitCandidateList splits a candidate list into its entries, at
// newlines and ';', leaving out comments (from '#' to the end of the
// line) and empty entries.
func splitCandidateList(s string) []entryText {
	var es []entryText
	for i, line := range strings.Split(s, "\n") {
		line, _, _ = strings.Cut(line, "#")
		for _, e := range strings.Split(line, ";") {
			if e = strings.TrimSpace(e); e != "" {
				es = append(es, entryText{e, i})
			}
		}
	}
	return es
}

// entryError is what is wrong with an entry of a candidate list, and the
// line of the list it is on (from 0), so that a review file's error can
// name the file's line.
type entryError struct {
	line int
	msg  string
}

func (e *entryError) Error() string { return e.msg }

// candidateListValue is --candidate-list: candidates written by hand, read
// once the length of a round is known, like a time flag.
type candidateListValue struct {
	entries *[]candidateEntry
	text    *string
}

func (v candidateListValue) String() string { return *v.text }

func (v candidateListValue) Set(s string) error {
	*v.text = s
	return nil
}

func (v candidateListValue) Type() string { return "candidates" }

func (v candidateListValue) kind() model.TimeKind { return model.Duration }

// resolve reads the list in the unit of t. Its error names the entry,
// and it returns that entry's text, which the flag's error echoes.
func (v candidateListValue) resolve(t model.Tick) (string, error) {
	*v.entries = (*v.entries)[:0]
	texts := splitCandidateList(*v.text)
	switch {
	case len(texts) == 0:
		return *v.text, fmt.Errorf("no candidate: want %s", candidateListSyntax)
	case len(texts) > maxCandidateList:
		return fmt.Sprintf("%d entries", len(texts)), fmt.Errorf("want at most %d candidates", maxCandidateList)
	}
	for i, et := range texts {
		e, err := parseCandidateEntry(et.text, t)
		if err != nil {
			return et.text, &entryError{et.line, fmt.Sprintf("entry %d: %v", i+1, err)}
		}
		e.n = i + 1
		*v.entries = append(*v.entries, e)
	}
	return *v.text, nil
}

// parseCandidateEntry reads one entry, KEY=VALUE…, in the unit of t.
func parseCandidateEntry(s string, t model.Tick) (candidateEntry, error) {
	e := candidateEntry{text: s}
	var seen []string
	for _, field := range strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == ' ' || r == '\t' || r == '\r' }) {
		key, value, ok := strings.Cut(field, "=")
		if !ok {
			return e, fmt.Errorf("%q is not KEY=VALUE: want preset=NAME or one of %s, as lease=45s", field, keyNames())
		}
		if slices.Contains(seen, key) {
			return e, fmt.Errorf("%s is given twice: want each key once", key)
		}
		seen = append(seen, key)
		if key == "preset" {
			p, err := settings.PresetByName(value)
			if err != nil {
				return e, fmt.Errorf("preset %q: %v", value, err)
			}
			e.preset, e.hasPreset = p, true
			continue
		}
		i := slices.IndexFunc(candidateKeys, func(p model.Param) bool { return p.Name() == key })
		if i < 0 {
			return e, fmt.Errorf("unknown key %q: want preset or one of %s", key, keyNames())
		}
		p := candidateKeys[i]
		v, err := parse.Value(t, p, value)
		if err != nil {
			return e, fmt.Errorf("%s %q: %v", key, value, err)
		}
		e.set = append(e.set, candidateSetting{p, v})
	}
	if e.hasPreset && t == 0 {
		return e, fmt.Errorf("preset=%s needs --tick (or the deployment's --preset): a preset's lease settings are durations", e.preset.Name)
	}
	return e, nil
}

// keyNames is candidateKeys' names, comma-separated.
func keyNames() string {
	var names []string
	for _, p := range candidateKeys {
		names = append(names, p.Name())
	}
	return strings.Join(names, ", ")
}

// candidate is the candidate entry e gives for the deployment base, in
// rounds of t: base's settings, then the preset's lease settings, then
// the keys. Its error says why the candidate does not go with base's
// other settings (client-go's lease > renew deadline > 1.2 × retry period
// among them), naming the entry.
func (e candidateEntry) candidate(base model.Config, t model.Tick) (cost.Candidate, error) {
	c := base
	if e.hasPreset {
		for p, d := range presetTimes(e.preset) {
			if p == model.RereadPeriod {
				continue // the deployment's: a candidate chooses its lease settings, not the model's re-read
			}
			n, err := parse.Value(t, p, d.String())
			if err != nil {
				return cost.Candidate{}, usagef("--candidate-list entry %d (%s): preset %s sets %s %s, which --tick %s cannot hold", e.n, e.text, e.preset.Name, p.Name(), d, t)
			}
			c.Set(p, n)
		}
	}
	for _, s := range e.set {
		c.Set(s.p, s.v)
	}
	k := cost.CandidateOf(c)
	c = k.Apply(base)
	if err := c.Validate(); err != nil {
		msg := err.Error()
		if re, ok := err.(*model.RelationError); ok {
			msg = re.Keys(t)
		}
		return k, usagef("--candidate-list entry %d (%s): %s", e.n, e.text, msg)
	}
	return k, nil
}

// candidateEntryAt finds the entry an error names ("--candidate-list
// entry 3"), by its number.
var candidateEntryAt = regexp.MustCompile(`--candidate-list entry (\d+)`)

// entryLine is the line of the candidate list text that the entry msg
// names is on (from 0), if msg names one.
func entryLine(text, msg string) (int, bool) {
	m := candidateEntryAt.FindStringSubmatch(msg)
	if m == nil {
		return 0, false
	}
	n, _ := strconv.Atoi(m[1])
	es := splitCandidateList(text)
	if n < 1 || n > len(es) {
		return 0, false
	}
	return es[n-1].line, true
}

// presetsIn is the lease presets whose settings t holds, in its rounds,
// for naming candidates: none without a tick.
func presetsIn(t model.Tick) []study.Preset {
	if t == 0 {
		return nil
	}
	var ps []study.Preset
	for _, p := range settings.Presets() {
		r := study.Preset{Name: p.Name}
		var err error
		for _, f := range []struct {
			dst *int
			p   model.Param
		}{{&r.Lease, model.Lease}, {&r.RenewDeadline, model.RenewDeadline}, {&r.RetryPeriod, model.RetryPeriod}} {
			if *f.dst, err = parse.Value(t, f.p, presetTimes(p)[f.p].String()); err != nil {
				break
			}
		}
		if err == nil {
			ps = append(ps, r)
		}
	}
	return ps
}
