// Package candidatelist reads a candidate list (report's
// --candidate-list, a review file's candidate_list): candidates written
// by hand, one a line or separated by ';', each KEY=VALUE… that sets a
// preset, the lease settings, the node count, fencing, the trigger
// policy or a lock's options, in rounds of a tick; and turns each into a
// cost.Candidate for a deployment.
package candidatelist

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/leasesim/leasesim/cost"
	"github.com/leasesim/leasesim/internal/flagerr"
	"github.com/leasesim/leasesim/model"
	"github.com/leasesim/leasesim/model/parse"
	"github.com/leasesim/leasesim/settings"
)

// Keys is what an entry may set besides a preset: the lease settings,
// the node count, fencing and the trigger policy (cost.Candidate), each
// by its parameter's name.
var Keys = []model.Param{model.Lease, model.RenewDeadline, model.RetryPeriod, model.Nodes, model.Fencing,
	model.PersistentTrigger, model.CatchUpWindow, model.CatchUpOnce, model.IdempotencyKey, model.Overlap, model.OnCut, model.RunsIn, model.Protocol, model.LockDelay, model.AcquireWait, model.DisconnectDelay}

// Syntax says what a candidate list takes.
const Syntax = "candidates, one a line or separated by ';', each KEY=VALUE… (spaces or commas between): preset=NAME and any of lease, renew_deadline, retry_period, nodes, fencing, persistent_trigger, catch_up_window, catch_up_once, idempotency_key, overlap, on_cut, runs_in, protocol, lock_delay, acquire_wait, disconnect_delay, each as its flag takes it, and a lock's options with its preset (session_ttl, lock_delay, session_timeout, tick_time, error_policy, heartbeat_period, refresh_period, additional_time_to_wait, and lease, or lease_duration, as dynamodb's leaseDuration, as --preset takes them); what an entry leaves out is the deployment's, a preset's settings are taken before the keys; # starts a comment"

// leaseDurationKey is the lease by the name the libraries give it, which
// names a DynamoDB lock's setting (settings.Setting): an entry takes it
// for lease.
const leaseDurationKey = "lease_duration"

// Max bounds the entries of a candidate list, as a list of values is
// bounded.
const Max = 1000

// Entry is one entry of a candidate list, as written and read: its text,
// its number (from 1, which an error names), the preset it starts from,
// if any, and the settings it gives, in rounds.
type Entry struct {
	Text      string
	N         int
	Preset    settings.Preset
	HasPreset bool
	Lock      settings.RoundLock // a lock's preset with the entry's options
	Options   settings.Lock      // the same as its library's options set it
	Set       []Setting
}

// Setting is one KEY=VALUE of an entry, in rounds.
type Setting struct {
	Param model.Param
	Value int
}

// Text is an entry of a candidate list as written, and the line of the
// list it is on, from 0.
type Text struct {
	Text string
	Line int
}

// Split splits a candidate list into its entries, at newlines and ';',
// leaving out comments (from '#' to the end of the line) and empty
// entries.
func Split(s string) []Text {
	var es []Text
	for i, line := range strings.Split(s, "\n") {
		line, _, _ = strings.Cut(line, "#")
		for _, e := range strings.Split(line, ";") {
			if e = strings.TrimSpace(e); e != "" {
				es = append(es, Text{e, i})
			}
		}
	}
	return es
}

// ParseEntry reads one entry, KEY=VALUE…, in the unit of t. A lock's
// options go to its preset as --preset's flags do
// (settings.Preset.WithOptions), lock_delay among them under
// preset=consul and lease under preset=dynamodb. Its error names the
// keys as the entry does.
func ParseEntry(s string, t model.Tick) (Entry, error) {
	e := Entry{Text: s}
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
			e.Preset, e.HasPreset = p, true
		case slices.Contains(settings.RoundOptions, flag) || slices.ContainsFunc(Keys, func(p model.Param) bool { return p.Name() == key }):
			texts[flag] = value
		default:
			return e, fmt.Errorf("unknown key %q: want preset or one of %s, or with a lock's preset its options, named as its flags are (session_ttl for --session-ttl)", key, keyNames())
		}
	}
	var presets []settings.Preset
	if e.HasPreset {
		presets = []settings.Preset{e.Preset}
	}
	for _, key := range seen { // in the entry's order, so that the first refused is named
		flag := strings.ReplaceAll(key, "_", "-")
		if _, ok := texts[flag]; !ok || !(slices.Contains(settings.RoundOptions, flag) || slices.Contains(settings.PresetSets, flag)) {
			continue
		}
		var r *settings.OptionRefusal
		if err := settings.CheckOptions(func(o string) bool { return o == flag }, presets); errors.As(err, &r) {
			return e, errors.New(r.Key())
		}
	}
	if e.HasPreset && e.Preset.Lock != nil {
		var err error
		if e.Options, e.Lock, err = e.Preset.WithOptions(func(flag string) (string, bool) { v, ok := texts[flag]; return v, ok }); err != nil {
			return e, fmt.Errorf("%s%s", keyText(err), settings.NearestHint(e.Options, t))
		}
		delete(texts, "lock-delay") // Consul's option, read
		if _, ok := e.Preset.Lock.(settings.DynamoDB); ok {
			delete(texts, "lease") // its leaseDuration, read
		}
	}
	for _, key := range seen {
		value, ok := texts[strings.ReplaceAll(key, "_", "-")]
		i := slices.IndexFunc(Keys, func(p model.Param) bool { return p.Name() == key })
		if !ok || i < 0 {
			continue
		}
		p := Keys[i]
		v, err := parse.Value(t, p, value)
		if err != nil {
			return e, fmt.Errorf("%s %q: %v", key, value, err)
		}
		e.Set = append(e.Set, Setting{p, v})
	}
	if e.HasPreset && t == 0 {
		return e, flagerr.Errorf([]string{"tick", "preset"}, "preset=%s needs --tick (or the deployment's --preset): a preset's lease settings are durations", e.Preset.Name)
	}
	return e, nil
}

// keyText is an error of settings.Preset.WithOptions or
// settings.Preset.Values with the options named as an entry names them.
func keyText(err error) string {
	if k, ok := err.(interface{ Key() string }); ok {
		return k.Key()
	}
	return err.Error()
}

// keyNames is Keys' names, comma-separated.
func keyNames() string {
	var names []string
	for _, p := range Keys {
		names = append(names, p.Name())
	}
	return strings.Join(names, ", ")
}

// CandidateError is an entry whose candidate does not go with the
// deployment's other settings: its number, its text and why.
type CandidateError struct {
	N    int
	Text string
	Msg  string
}

// Error names the entry: entry 2 (preset=etcd): ….
func (e *CandidateError) Error() string { return fmt.Sprintf("entry %d (%s): %s", e.N, e.Text, e.Msg) }

// Candidate is the candidate the entry gives for the deployment base, in
// rounds of t: base's settings, then the preset's lease settings, then
// the keys. Its error, a *CandidateError, says why the candidate does
// not go with base's other settings (client-go's lease > renew deadline
// > 1.2 × retry period among them).
func (e Entry) Candidate(base model.Config, t model.Tick) (cost.Candidate, error) {
	c := base
	if e.HasPreset {
		vals, err := e.Preset.Values(e.Lock, t)
		if err != nil {
			return cost.Candidate{}, &CandidateError{e.N, e.Text, keyText(err) + settings.NearestHint(e.Options, t)}
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
	for _, s := range e.Set {
		c.Set(s.Param, s.Value)
	}
	k := cost.CandidateOf(c)
	c = k.Apply(base)
	if err := c.Validate(); err != nil {
		msg := err.Error()
		if re, ok := err.(*model.RelationError); ok {
			msg = re.Keys(t)
		}
		return k, &CandidateError{e.N, e.Text, msg}
	}
	return k, nil
}
