package main

import (
	"errors"
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
	model.PersistentTrigger, model.CatchUpWindow, model.CatchUpOnce, model.IdempotencyKey, model.Overlap, model.OnCut, model.RunsIn, model.Protocol, model.LockDelay, model.AcquireWait, model.DisconnectDelay}

// candidateListSyntax says what --candidate-list takes.
const candidateListSyntax = "candidates, one a line or separated by ';', each KEY=VALUE… (spaces or commas between): preset=NAME and any of lease, renew_deadline, retry_period, nodes, fencing, persistent_trigger, catch_up_window, catch_up_once, idempotency_key, overlap, on_cut, runs_in, protocol, lock_delay, acquire_wait, disconnect_delay, each as its flag takes it, and a lock's options with its preset (session_ttl, lock_delay, session_timeout, tick_time, error_policy, heartbeat_period, refresh_period, additional_time_to_wait, and lease, or lease_duration, as dynamodb's leaseDuration, as --preset takes them); what an entry leaves out is the deployment's, a preset's settings are taken before the keys; # starts a comment"

// leaseDurationKey is the lease by the name the libraries give it, which
// names a DynamoDB lock's setting (settings.Setting): an entry takes it
// for lease.
const leaseDurationKey = "lease_duration"

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
	lock      settings.RoundLock // a lock's preset with the entry's options
	options   settings.Lock      // the same as its library's options set it
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

// parseCandidateEntry reads one entry, KEY=VALUE…, in the unit of t. A
// lock's options go to its preset as --preset's flags do (presetLock),
// lock_delay among them under preset=consul and lease under
// preset=dynamodb.
func parseCandidateEntry(s string, t model.Tick) (candidateEntry, error) {
	e := candidateEntry{text: s}
	var seen []string
	texts := map[string]string{} // the keys as given, by flag name
	for _, field := range strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == ' ' || r == '\t' || r == '\r' }) {
		key, value, ok := strings.Cut(field, "=")
		if !ok {
			return e, fmt.Errorf("%q is not KEY=VALUE: want preset=NAME or one of %s, as lease=45s", field, keyNames())
		}
		if key == leaseDurationKey { // the library's name of the lease (client-go's LeaseDuration, DynamoDB's leaseDuration), as a lock's setting is named
			key = model.Lease.Name()
		}
		if strings.Contains(key, "-") { // session-ttl beside session_ttl would be the same key twice
			return e, fmt.Errorf("key %q: write it %s, named as its parameter is, with underscores", key, strings.ReplaceAll(key, "-", "_"))
		}
		if slices.Contains(seen, key) {
			return e, fmt.Errorf("%s is given twice: want each key once", key)
		}
		seen = append(seen, key)
		flag := strings.ReplaceAll(key, "_", "-")
		switch {
		case key == "preset":
			p, err := settings.PresetByName(value)
			if err != nil {
				return e, fmt.Errorf("preset %q: %v", value, err)
			}
			e.preset, e.hasPreset = p, true
		case slices.Contains(settings.RoundOptions, flag) || slices.ContainsFunc(candidateKeys, func(p model.Param) bool { return p.Name() == key }):
			texts[flag] = value
		default:
			return e, fmt.Errorf("unknown key %q: want preset or one of %s, or with a lock's preset its options, named as its flags are (session_ttl for --session-ttl)", key, keyNames())
		}
	}
	var presets []settings.Preset
	if e.hasPreset {
		presets = []settings.Preset{e.preset}
	}
	for _, key := range seen { // in the entry's order, so that the first refused is named
		flag := strings.ReplaceAll(key, "_", "-")
		if _, ok := texts[flag]; !ok || !(slices.Contains(settings.RoundOptions, flag) || slices.Contains(settings.PresetSets, flag)) {
			continue
		}
		if err := checkPresetKey(flag, presets); err != nil {
			return e, err
		}
	}
	if e.hasPreset && e.preset.Lock != nil {
		var err error
		if e.options, e.lock, err = presetOptions(e.preset, func(flag string) (string, bool) { v, ok := texts[flag]; return v, ok }, true); err != nil {
			return e, fmt.Errorf("%v%s", err, settings.NearestHint(e.options, t))
		}
		delete(texts, "lock-delay") // Consul's option, read
		if _, ok := e.preset.Lock.(settings.DynamoDB); ok {
			delete(texts, "lease") // its leaseDuration, read
		}
	}
	for _, key := range seen {
		value, ok := texts[strings.ReplaceAll(key, "_", "-")]
		i := slices.IndexFunc(candidateKeys, func(p model.Param) bool { return p.Name() == key })
		if !ok || i < 0 {
			continue
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

// checkPresetKey is checkPresetFlags for one key of a candidate entry,
// named as the entry names its keys.
func checkPresetKey(flag string, presets []settings.Preset) error {
	var r *settings.OptionRefusal
	if err := settings.CheckOptions(func(o string) bool { return o == flag }, presets); errors.As(err, &r) {
		return errors.New(r.Key())
	}
	return nil
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
		vals, err := e.preset.Values(e.lock, t)
		if err != nil {
			msg, _, _ := strings.Cut(strings.Replace(err.Error(), "--preset "+e.preset.Name, "preset "+e.preset.Name, 1), "; without --tick") // the review's tick is the deployment's
			msg = strings.Replace(msg, "give --refresh-period ", "give refresh_period=", 1)                                                   // DynamoDB's round, as the entry names it
			msg += settings.NearestHint(e.options, t)
			return cost.Candidate{}, usagef("--candidate-list entry %d (%s): %s", e.n, e.text, msg)
		}
		for p, n := range vals {
			switch {
			case p == model.RereadPeriod: // the deployment's: a candidate chooses its lease settings, not the model's re-read
			case p == model.Jitter && model.LockProtocol(vals[model.Protocol]) == base.Protocol: // the deployment's, unless the lock changes: client-go's followers jitter, the others' watch
			default:
				c.Set(p, n)
			}
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

// presetsIn is the presets' defaults that t holds, in its rounds, for
// naming candidates: none without a tick.
func presetsIn(t model.Tick) []study.Preset {
	if t == 0 {
		return nil
	}
	var ps []study.Preset
	for _, p := range settings.Presets() {
		r, _ := p.Round()
		vals, err := p.Values(r, t)
		if err != nil {
			continue
		}
		ps = append(ps, study.Preset{Name: p.Name, Lease: vals[model.Lease], RenewDeadline: vals[model.RenewDeadline], RetryPeriod: vals[model.RetryPeriod],
			Protocol: model.LockProtocol(vals[model.Protocol]), LockDelay: vals[model.LockDelay], AcquireWait: vals[model.AcquireWait], DisconnectDelay: vals[model.DisconnectDelay]})
	}
	return ps
}
