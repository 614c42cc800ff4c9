package settings

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/leasesim/leasesim/model"
	"github.com/leasesim/leasesim/model/parse"
)

// Values is what the preset sets, in rounds of t: client-go's lease
// settings, renewal 0, protocol client-go, no lock-delay or acquire wait
// and jitter; or a lock's protocol and times, r (the preset's lock with
// its options, WithOptions), its renew deadline and renewal 0 and no
// jitter. Its error, a *TickError, says which time t cannot hold, or,
// for DynamoDB, that t is not its refresh period.
func (p Preset) Values(r RoundLock, t model.Tick) (map[model.Param]int, error) {
	times := map[model.Param]time.Duration{model.Lease: p.LeaseDuration, model.RenewDeadline: p.RenewDeadline, model.RetryPeriod: p.RetryPeriod, model.RereadPeriod: 0,
		model.LockDelay: 0, model.AcquireWait: 0, model.DisconnectDelay: 0}
	jitter := 0
	if p.Exact {
		jitter = 1
	}
	vals := map[model.Param]int{model.Jitter: jitter, model.Protocol: int(model.ProtocolClientGo)}
	if p.Lock != nil {
		times = map[model.Param]time.Duration{model.Lease: r.Lease, model.RetryPeriod: r.RetryPeriod, model.LockDelay: r.LockDelay, model.AcquireWait: r.AcquireWait, model.DisconnectDelay: r.DisconnectDelay, model.RenewDeadline: 0, model.RereadPeriod: 0,
			model.LockAtLeastFor: r.LockAtLeastFor, model.FireSpread: r.FireSpread}
		vals[model.Protocol] = int(r.Protocol)
		if r.UsingDbTime {
			vals[model.UsingDbTime] = 1
		}
		if r.OnCut != model.CutNone {
			vals[model.OnCut] = int(r.OnCut)
		}
	}
	if r.Refresh > 0 && time.Duration(t) != r.Refresh { // its waiters read every round
		return nil, &TickError{Preset: p.Name, Tick: t, Refresh: model.Tick(r.Refresh)}
	}
	for param := model.Param(0); int(param) < model.NumParams; param++ { // in column order, so a refusal is always the same
		d, ok := times[param]
		if !ok {
			continue
		}
		n, err := parse.Value(t, param, d.String())
		if err != nil {
			e := &TickError{Preset: p.Name, Tick: t, Param: param, Time: d, Err: err}
			if p.Lock != nil {
				e.Own = model.Tick(r.Tick())
			}
			return nil, e
		}
		vals[param] = n
	}
	return vals, nil
}

// TickError is a tick that cannot hold what a preset sets: a time of it
// (Param and Time, and Err, why), or for DynamoDB a tick other than its
// refresh period (Refresh).
type TickError struct {
	Preset  string
	Tick    model.Tick
	Refresh model.Tick    // DynamoDB's refresh period, which the tick must be; 0 for a time the tick cannot hold
	Param   model.Param   // the time the tick cannot hold
	Time    time.Duration // its value
	Err     error
	Own     model.Tick // a lock's own tick, where its times are whole; 0 for client-go's
}

// Error names the preset and the options as flags, with the tick the
// preset takes without --tick.
func (e *TickError) Error() string {
	if e.Refresh != 0 {
		return fmt.Sprintf("--preset %s reads the record every round, so --tick %s must be its refresh period %s: give --refresh-period %s; without --tick the preset takes %s", e.Preset, e.Tick, e.Refresh, e.Tick, e.Refresh)
	}
	hint := ""
	if e.Own != 0 {
		hint = fmt.Sprintf("; without --tick the preset takes %s, where its times are whole", e.Own)
	}
	return fmt.Sprintf("--preset %s sets %s %s, which --tick %s cannot hold: %v%s", e.Preset, e.Param.Flag(), e.Time, e.Tick, e.Err, hint)
}

// FlagNames is the flags Error names, without their "--": the preset, the
// tick and, for DynamoDB, its refresh period.
func (e *TickError) FlagNames() []string {
	if e.Refresh != 0 {
		return []string{"preset", "tick", "refresh-period"}
	}
	return []string{"preset", "tick"}
}

// Key names them as a candidate list's entry does, whose tick is the
// deployment's.
func (e *TickError) Key() string {
	if e.Refresh != 0 {
		return fmt.Sprintf("preset %s reads the record every round, so --tick %s must be its refresh period %s: give refresh_period=%s", e.Preset, e.Tick, e.Refresh, e.Tick)
	}
	return fmt.Sprintf("preset %s sets %s %s, which --tick %s cannot hold: %v", e.Preset, e.Param.Flag(), e.Time, e.Tick, e.Err)
}

// NearestHint is what a refusal of lock at a round of t adds: the
// nearest settings of its options the round model runs it with
// (Nearest), as a candidate list writes them, or nothing without a tick
// or where none is near.
func NearestHint(lock Lock, t model.Tick) string {
	if lock == nil || t == 0 {
		return ""
	}
	near := Nearest(lock, time.Duration(t))
	if len(near) == 0 {
		return ""
	}
	var ss []string
	for _, l := range near[:min(len(near), 3)] {
		ss = append(ss, Setting(l))
	}
	return fmt.Sprintf("; the nearest it takes at a round of %s: %s", t, strings.Join(ss, " or "))
}

// OptionError is a lock's option given with its preset that could not be
// read: the option by its flag name (session-ttl), its text and why.
type OptionError struct {
	Option, Text string
	Err          error
}

// Error names the option as a flag: invalid argument "5x" for
// "--session-ttl" flag: ….
func (e *OptionError) Error() string {
	return fmt.Sprintf("invalid argument %q for \"--%s\" flag: %v", e.Text, e.Option, e.Err)
}

// FlagNames is the flag Error names: the option.
func (e *OptionError) FlagNames() []string { return []string{e.Option} }

// Key names the option as a candidate list's key: session_ttl "5x": ….
func (e *OptionError) Key() string {
	return fmt.Sprintf("%s %q: %v", strings.ReplaceAll(e.Option, "-", "_"), e.Text, e.Err)
}

// PresetError is a lock's preset with options that the library or the
// round model refuses: the preset, the options given (flag name and
// text, in the order read) and the refusal.
type PresetError struct {
	Preset string
	Given  [][2]string
	lock   Lock
	round  bool // the round model's refusal (LockRow.RoundCheck), which names the options
}

// Error names the preset and options as flags: --preset consul
// --session-ttl 5s: ….
func (e *PresetError) Error() string {
	return e.text("--preset "+e.Preset, func(o, v string) string { return "--" + o + " " + v }, func(o string) string { return "--" + o })
}

// FlagNames is the flags Error names, without their "--": the preset, the
// options given and those the round model's refusal names.
func (e *PresetError) FlagNames() []string {
	names := []string{"preset"}
	for _, g := range e.Given {
		names = append(names, g[0])
	}
	e.text("", func(o, v string) string { return "" }, func(o string) string {
		if !slices.Contains(names, o) {
			names = append(names, o)
		}
		return o
	})
	return names
}

// Key names them as a candidate list's entry: preset=consul
// session_ttl=5s: ….
func (e *PresetError) Key() string {
	key := func(o string) string { return strings.ReplaceAll(o, "-", "_") }
	return e.text("preset="+e.Preset, func(o, v string) string { return key(o) + "=" + v }, key)
}

func (e *PresetError) text(preset string, given func(o, v string) string, name func(o string) string) string {
	ss := []string{preset}
	for _, g := range e.Given {
		ss = append(ss, given(g[0], g[1]))
	}
	err := e.lock.Validate()
	if row, _ := LockRowOf(e.Preset); e.round {
		err = row.RoundCheck(e.lock, name)
	}
	return fmt.Sprintf("%s: %v", strings.Join(ss, " "), err)
}

// WithOptions is the preset's lock with the options text gives (by flag
// name: session-ttl, lock-delay, lease for DynamoDB's leaseDuration, …),
// each read as the settings command reads it, and its round-model
// settings, among the nodes text gives (nodes: one count; a list leaves
// the lock's). Its error is an *OptionError for an option it cannot read
// (and a nil lock), or a *PresetError for a lock the library or the
// round model refuses (and that lock).
func (p Preset) WithOptions(text func(option string) (string, bool)) (Lock, RoundLock, error) {
	lock := p.Lock
	var given [][2]string
	var err error
	option := func(name string, set func(string) error) {
		s, ok := text(name)
		if !ok || err != nil {
			return
		}
		if e := set(s); e != nil {
			err = &OptionError{name, s, e}
			return
		}
		given = append(given, [2]string{name, s})
	}
	row, _ := LockRowOf(p.Name)
	if s, ok := text("nodes"); ok && row.WithNodes != nil { // the lock among the model's nodes, where one count is given (Quartz's and db-scheduler's lease counts them)
		if n, e := strconv.Atoi(s); e == nil && n >= 1 {
			lock = row.WithNodes(lock, n)
		}
	}
	for _, f := range row.Flags {
		if f.Refusal != "" {
			continue
		}
		option(f.Name, func(s string) error {
			if f.OneValue != "" {
				if err := OneValue(s, f.OneValue); err != nil {
					return err
				}
			}
			l, err := f.Set(lock, s)
			lock = l
			return err
		})
	}
	if err != nil {
		return nil, RoundLock{}, err
	}
	if lock.Validate() != nil {
		return lock, RoundLock{}, &PresetError{p.Name, given, lock, false}
	}
	if row.RoundCheck != nil && row.RoundCheck(lock, func(o string) string { return o }) != nil {
		return lock, RoundLock{}, &PresetError{p.Name, given, lock, true}
	}
	r, _ := RoundLockOf(lock)
	return lock, r, nil
}

// OneValue refuses a list (1,2 or 1:4) given where one value is taken,
// saying which commands take the list instead (where). A value takes the
// same form wherever it can: a list where a command compares or sweeps
// settings, one value where it runs one.
func OneValue(s, where string) error {
	if strings.ContainsAny(s, ",:") {
		return fmt.Errorf("want one value here, not a list (%s)", where)
	}
	return nil
}

// ParseDuration reads a lock's positive time as the settings command
// does: one value, 1ms to 24h in whole milliseconds, as a tick.
func ParseDuration(s string) (time.Duration, error) {
	if err := OneValue(s, "sweep and check take every model flag as a list"); err != nil {
		return 0, err
	}
	t, err := parse.Tick(s)
	return time.Duration(t), err
}

// ParseNonNegativeDuration is ParseDuration that also takes 0.
func ParseNonNegativeDuration(s string) (time.Duration, error) {
	if d, err := time.ParseDuration(s); err == nil && d == 0 {
		return 0, nil
	}
	return ParseDuration(s)
}

// durationInto sets *d to a positive duration read from its text.
func durationInto(d *time.Duration) func(string) error {
	return func(s string) error {
		v, err := ParseDuration(s)
		if err == nil {
			*d = v
		}
		return err
	}
}

// nonNegativeInto sets *d to a duration of 0 or more read from its text.
func nonNegativeInto(d *time.Duration) func(string) error {
	return func(s string) error {
		v, err := ParseNonNegativeDuration(s)
		if err == nil {
			*d = v
		}
		return err
	}
}
