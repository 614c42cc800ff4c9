// Package input is what a command is given as text, on its command line
// or in a review file, held as given until every flag is read and then
// read through the parser of the package that owns its syntax: a model
// parameter's value or list of values, a distribution of lengths, a
// further failure process, a candidate list, a lock's option, a number
// in range. A time is given in whole rounds, or in durations once the
// tick is known, and the tick may come after it: such a value (Timed)
// keeps its text until Resolve reads it in the tick's unit, and then a
// preset's or a scheduler's values go where nothing given set them.
//
// Each value is a Value (String, Set, Type), which a command-line parser
// such as pflag takes as its own flag value; the package does not depend
// on one: what it reads of the flags given is the Flags interface.
package input

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/leasesim/leasesim/candidatelist"
	"github.com/leasesim/leasesim/cost"
	"github.com/leasesim/leasesim/internal/atomicfile"
	"github.com/leasesim/leasesim/model"
	"github.com/leasesim/leasesim/model/parse"
	"github.com/leasesim/leasesim/montecarlo"
	"github.com/leasesim/leasesim/settings"
	"github.com/leasesim/leasesim/sweep"
)

// Value is a flag's value as text: String writes it (as --help shows a
// default), Set reads a given text, Type names what it takes. It is
// pflag.Value, by its methods.
type Value interface {
	String() string
	Set(string) error
	Type() string
}

// Timed is a value whose text is read once the tick is known: Resolve
// reads it in the unit of t and returns the text it read (that the
// flag's error echoes); Kind is whether it is a time.
type Timed interface {
	Value
	Resolve(t model.Tick) (string, error)
	Kind() model.TimeKind
}

// Param is a flag holding one value of a model parameter, checked
// against the parameter's range. A time's text is kept as given and read
// by Resolve, because --tick, which says whether it is rounds or a
// duration, may come after it.
type Param struct {
	P    model.Param
	C    *model.Config // where the value goes
	text *string       // a time as given, until Resolve reads it
}

// NewParam is a flag holding p's value in c.
func NewParam(p model.Param, c *model.Config) Param { return Param{p, c, new(string)} }

// String writes the value back, as --help shows a default.
func (v Param) String() string {
	return string(v.P.AppendValue(nil, v.C.Get(v.P)))
}

// Set reads s: at once, unless it is a time.
func (v Param) Set(s string) error {
	if err := settings.OneValue(s, "sweep and check take every model flag as a list"); err != nil {
		return err
	}
	if v.P.Time() != model.NotTime {
		*v.text = s
		return nil
	}
	n, err := parse.Value(0, v.P, s)
	if err != nil {
		return err
	}
	v.C.Set(v.P, n)
	return nil
}

// Resolve reads a time's text in rounds of t.
func (v Param) Resolve(t model.Tick) (string, error) {
	if v.P.Time() == model.NotTime {
		return "", nil
	}
	n, err := parse.Value(t, v.P, *v.text)
	if err == nil {
		v.C.Set(v.P, n)
	}
	return *v.text, err
}

// Type is bool, name, time or int.
func (v Param) Type() string {
	switch {
	case v.P.Bool():
		return "bool"
	case v.P.Names() != nil:
		return "name"
	case v.P.Time() != model.NotTime:
		return "time"
	}
	return "int"
}

// Kind is the parameter's.
func (v Param) Kind() model.TimeKind { return v.P.Time() }

// List is a flag holding a list of values of a model parameter, in
// sweep's list syntax (sweep.ParseValues). Like Param, a list of times is
// read by Resolve.
type List struct {
	P    model.Param
	Vals *sweep.List // where the list goes
	text *string
}

// NewList is a flag holding a list of p's values in vals.
func NewList(p model.Param, vals *sweep.List) List { return List{p, vals, new(string)} }

// String writes the value back, as --help shows a default.
func (v List) String() string { return v.Vals.Format(v.P) }

// Set reads s: at once, unless it is a list of times.
func (v List) Set(s string) error {
	if v.P.Time() != model.NotTime {
		*v.text = s
		return nil
	}
	vals, err := sweep.ParseValues(0, v.P, s)
	if err != nil {
		return err
	}
	*v.Vals = vals
	return nil
}

// Resolve reads a list of times in rounds of t.
func (v List) Resolve(t model.Tick) (string, error) {
	if v.P.Time() == model.NotTime {
		return "", nil
	}
	vals, err := sweep.ParseValues(t, v.P, *v.text)
	if err == nil {
		*v.Vals = vals
	}
	return *v.text, err
}

// Type is bools, names, times or list.
func (v List) Type() string {
	switch {
	case v.P.Bool():
		return "bools"
	case v.P.Names() != nil:
		return "names"
	case v.P.Time() != model.NotTime:
		return "times"
	}
	return "list"
}

// Kind is the parameter's.
func (v List) Kind() model.TimeKind { return v.P.Time() }

// Lengths is a flag holding a distribution of period lengths
// (montecarlo.ParseLengths), in rounds or, with a tick, in durations:
// read by Resolve, like a time.
type Lengths struct {
	l    *model.Lengths
	text *string
}

// NewLengths is a flag holding a distribution in l.
func NewLengths(l *model.Lengths) Lengths { return Lengths{l, new(string)} }

// String writes the value back, as --help shows a default.
func (v Lengths) String() string { return v.l.String() }

// Set keeps s for Resolve.
func (v Lengths) Set(s string) error {
	*v.text = s
	return nil
}

// Resolve reads the distribution in the unit of t.
func (v Lengths) Resolve(t model.Tick) (string, error) {
	l, err := montecarlo.ParseLengths(t, *v.text)
	if err == nil {
		*v.l = l
	}
	return *v.text, err
}

// Kind is a duration's.
func (v Lengths) Kind() model.TimeKind { return model.Duration }

// Type is dist.
func (v Lengths) Type() string { return "dist" }

// Files is the file an empirical: distribution reads, if any.
func (v Lengths) Files() []string {
	if path, ok := strings.CutPrefix(*v.text, "empirical:"); ok {
		return []string{path}
	}
	return nil
}

// Processes is a repeatable flag (--also): a further failure process of
// every node (montecarlo.ParseProcess) a text, read by Resolve.
type Processes struct {
	ps    *[]model.Process
	texts *[]string
}

// NewProcesses is a flag holding processes in ps.
func NewProcesses(ps *[]model.Process) Processes { return Processes{ps, new([]string)} }

// String writes the value back, as --help shows a default.
func (v Processes) String() string { return strings.Join(*v.texts, " ") }

// Set adds s to the texts Resolve reads.
func (v Processes) Set(s string) error {
	*v.texts = append(*v.texts, s)
	return nil
}

// Resolve reads every process in the unit of t; its error returns the
// text refused.
func (v Processes) Resolve(t model.Tick) (string, error) {
	*v.ps = (*v.ps)[:0]
	for _, text := range *v.texts {
		p, err := montecarlo.ParseProcess(t, text)
		if err != nil {
			return text, err
		}
		*v.ps = append(*v.ps, p)
	}
	return strings.Join(*v.texts, " "), nil
}

// Kind is a duration's.
func (v Processes) Kind() model.TimeKind { return model.Duration }

// Type is process.
func (v Processes) Type() string { return "process" }

// Files is the files the processes' empirical: distributions read.
func (v Processes) Files() []string {
	var files []string
	for _, text := range *v.texts {
		_, lengths, _ := strings.Cut(text, "=")
		up, down, _ := montecarlo.CutUpDown(lengths)
		for _, l := range []string{up, down} {
			if path, ok := strings.CutPrefix(l, "empirical:"); ok {
				files = append(files, path)
			}
		}
	}
	return files
}

// CandidateList is a flag holding candidates written by hand
// (candidatelist.Parse), read by Resolve, like a time.
type CandidateList struct {
	entries *[]candidatelist.Entry
	text    *string
}

// NewCandidateList is a flag holding a candidate list in entries.
func NewCandidateList(entries *[]candidatelist.Entry) CandidateList {
	return CandidateList{entries, new(string)}
}

// String writes the value back, as --help shows a default.
func (v CandidateList) String() string { return *v.text }

// Set keeps s for Resolve.
func (v CandidateList) Set(s string) error {
	*v.text = s
	return nil
}

// Type is candidates.
func (v CandidateList) Type() string { return "candidates" }

// Kind is a duration's.
func (v CandidateList) Kind() model.TimeKind { return model.Duration }

// Resolve reads the list in the unit of t. Its error names the entry,
// and it returns that entry's text, which the flag's error echoes.
func (v CandidateList) Resolve(t model.Tick) (string, error) {
	es, err := candidatelist.Parse(*v.text, t)
	var ee *candidatelist.EntryError
	var le *candidatelist.ListError
	switch {
	case errors.As(err, &ee):
		return ee.Text, err
	case errors.As(err, &le) && le.N > 0:
		return fmt.Sprintf("%d entries", le.N), err
	case err != nil:
		return *v.text, err
	}
	*v.entries = es
	return *v.text, nil
}

// LockOption is a lock's option on a round-model command: one value,
// checked as its lock reads it (parse), its text kept for the lock's
// preset (Texts).
type LockOption struct {
	text  *string
	parse func(s string) error
	typ   string
}

// NewLockOption is a lock's option of type typ, checked by parse.
func NewLockOption(parse func(s string) error, typ string) LockOption {
	return LockOption{new(string), parse, typ}
}

// String writes the value back, as --help shows a default.
func (v LockOption) String() string { return *v.text }

// Set checks s and keeps it.
func (v LockOption) Set(s string) error {
	if err := settings.OneValue(s, "a lock's option takes one value; a sweep varies the model's lease and retry period under --protocol instead"); err != nil {
		return err
	}
	if err := v.parse(s); err != nil {
		return err
	}
	*v.text = s
	return nil
}

// Type is the option's.
func (v LockOption) Type() string { return v.typ }

// Choice is a flag holding one of a fixed set of words.
type Choice struct {
	s       *string
	Choices []string
}

// NewChoice is a flag holding one of choices in s.
func NewChoice(s *string, choices ...string) Choice { return Choice{s, choices} }

// String writes the value back, as --help shows a default.
func (v Choice) String() string { return *v.s }

// Set refuses a word not among the choices.
func (v Choice) Set(s string) error {
	if !slices.Contains(v.Choices, s) {
		return fmt.Errorf("want one of %s", strings.Join(v.Choices, ", "))
	}
	*v.s = s
	return nil
}

// Type is string.
func (v Choice) Type() string { return "string" }

// Output is a flag naming an output file, checked when it is set
// (atomicfile.Check) so that a folder, an empty name or a missing folder
// is refused before any work. Stdout, if not empty, is the name that
// means standard output.
type Output struct {
	path   *string
	Stdout string
}

// NewOutput is an output file flag whose name goes to path, set to
// stdout, the default.
func NewOutput(path *string, stdout string) Output {
	*path = stdout
	return Output{path, stdout}
}

// String writes the value back, as --help shows a default.
func (v Output) String() string { return *v.path }

// Set checks s, unless it is the name of standard output.
func (v Output) Set(s string) error {
	if s != v.Stdout || s == "" {
		if err := atomicfile.Check(s); err != nil {
			return err
		}
	}
	*v.path = s
	return nil
}

// Type is string.
func (v Output) Type() string { return "string" }

// File is the file the flag names, "" for none or standard output.
func (v Output) File() string {
	if *v.path == v.Stdout {
		return ""
	}
	return *v.path
}

// Parsed is a flag holding a value of T: Parse, the reader of the
// package that owns its syntax, reads it, and Format writes it back, as
// --help shows a default; Typ is what it takes.
type Parsed[T any] struct {
	P      *T
	Parse  func(string) (T, error)
	Format func(T) string
	Typ    string
}

// String writes the value back, as --help shows a default.
func (v Parsed[T]) String() string { return v.Format(*v.P) }

// Set reads s with Parse.
func (v Parsed[T]) Set(s string) error {
	x, err := v.Parse(s)
	if err != nil {
		return err
	}
	*v.P = x
	return nil
}

// Type is Typ.
func (v Parsed[T]) Type() string { return v.Typ }

// Tick is --tick, the real length of a round (parse.Tick); none shows
// as nothing.
func Tick(t *model.Tick) Parsed[model.Tick] {
	return Parsed[model.Tick]{t, parse.Tick, func(t model.Tick) string {
		if t == 0 {
			return ""
		}
		return t.String()
	}, "duration"}
}

// Named is a flag holding one of a set of defaults known by name
// (byName): a lock's (--preset) or a scheduler's (--scheduler). lists
// says where a list of names goes instead.
func Named[T fmt.Stringer](v *T, byName func(string) (T, error), lists string) Parsed[T] {
	return Parsed[T]{v, func(name string) (T, error) {
		if err := settings.OneValue(name, lists); err != nil {
			var zero T
			return zero, err
		}
		return byName(name)
	}, T.String, "name"}
}

// Presets is a flag holding a list of presets, comma-separated, each
// once, for a command that compares them.
func Presets(ps *[]settings.Preset) Parsed[[]settings.Preset] {
	return Parsed[[]settings.Preset]{ps, func(s string) ([]settings.Preset, error) {
		var ps []settings.Preset
		for _, name := range strings.Split(s, ",") {
			p, err := settings.PresetByName(name)
			if err != nil {
				return nil, err
			}
			if slices.ContainsFunc(ps, func(q settings.Preset) bool { return q.Name == p.Name }) {
				return nil, fmt.Errorf("duplicate value %s", name)
			}
			ps = append(ps, p)
		}
		return ps, nil
	}, func(ps []settings.Preset) string {
		var names []string
		for _, p := range ps {
			names = append(names, p.Name)
		}
		return strings.Join(names, ",")
	}, "names"}
}

// Rates is a flag holding a list of positive rates (cost.ParseRates).
func Rates(vals *[]float64) Parsed[[]float64] {
	return Parsed[[]float64]{vals, cost.ParseRates, func(vals []float64) string {
		var b []byte
		for i, f := range vals {
			if i > 0 {
				b = append(b, ',')
			}
			b = strconv.AppendFloat(b, f, 'f', -1, 64)
		}
		return string(b)
	}, "rates"}
}

// Rate is a flag holding one number from 0 to 1e12.
func Rate(f *float64) Parsed[float64] {
	return Parsed[float64]{f, func(s string) (float64, error) {
		f, err := strconv.ParseFloat(s, 64)
		if strings.ContainsAny(s, ",:") {
			return 0, fmt.Errorf("want one number from 0 to 1e12, not a list")
		}
		if err != nil || !(f >= 0) || f > 1e12 {
			return 0, fmt.Errorf("want a number from 0 to 1e12")
		}
		return f, nil
	}, formatFloat, "float"}
}

// Positive is a flag holding a whole number from 1 to max.
func Positive(n *int, max int) Parsed[int] {
	return Parsed[int]{n, func(s string) (int, error) {
		n, err := strconv.Atoi(s)
		if strings.ContainsAny(s, ",:") {
			return 0, fmt.Errorf("want one whole number from 1 to %d, not a list", max)
		}
		if err != nil || n < 1 || n > max {
			return 0, fmt.Errorf("want a whole number from 1 to %d", max)
		}
		return n, nil
	}, strconv.Itoa, "int"}
}

// Share is a flag holding a share from 0 to below 1, as 10% or 0.1
// (--precision, --material).
func Share(p *float64) Parsed[float64] {
	return Parsed[float64]{p, func(s string) (float64, error) {
		text, percent := strings.CutSuffix(s, "%")
		f, err := strconv.ParseFloat(text, 64)
		if percent {
			f /= 100
		}
		if err != nil || !(f >= 0 && f < 1) {
			return 0, fmt.Errorf("want a share from 0 to 1, as 10%% or 0.1")
		}
		return f, nil
	}, func(f float64) string { return formatFloat(100*f) + "%" }, "share"}
}

// Duration is a flag holding a positive duration, read with the bounds
// of a tick: 1ms to 24h in whole milliseconds (settings.ParseDuration).
func Duration(d *time.Duration) Parsed[time.Duration] {
	return Parsed[time.Duration]{d, settings.ParseDuration, time.Duration.String, "duration"}
}

func formatFloat(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }

// Choices is the values v takes where they are a few named ones, for a
// shell's completion: a toggle's, a named parameter's (--protocol,
// --overlap), a choice's (--format), a preset's (of the round model) and
// a scheduler's; nil for any other.
func Choices(v Value) []string {
	switch v := v.(type) {
	case Param:
		if v.P.Bool() {
			return []string{"false", "true"}
		}
		return v.P.Names()
	case List:
		if v.P.Bool() {
			return []string{"false", "true", "false,true"}
		}
		return v.P.Names()
	case Choice:
		return v.Choices
	case Parsed[settings.Preset], Parsed[[]settings.Preset]:
		var names []string
		for _, p := range settings.Presets() {
			names = append(names, p.Name)
		}
		return names
	case Parsed[settings.Scheduler]:
		var names []string
		for _, s := range settings.Schedulers() {
			names = append(names, s.Name)
		}
		return names
	}
	if v.Type() == "bool" {
		return []string{"false", "true"}
	}
	return nil
}

// SettingsOption is a lock's option on the settings command: its text as
// given, checked as its lock reads it (parse); a duration shows as Go
// writes it, as a duration flag does.
type SettingsOption struct {
	text  *string
	parse func(s string) error
	typ   string
}

// NewSettingsOption is a lock's option of type typ, checked by parse.
func NewSettingsOption(parse func(s string) error, typ string) SettingsOption {
	return SettingsOption{new(string), parse, typ}
}

// String writes the value back, as --help shows a default.
func (v SettingsOption) String() string {
	if d, err := settings.ParseNonNegativeDuration(*v.text); err == nil && v.typ == "duration" {
		return d.String()
	}
	return *v.text
}

// Set checks s and keeps it.
func (v SettingsOption) Set(s string) error {
	if err := v.parse(s); err != nil {
		return err
	}
	*v.text = s
	return nil
}

// Type is the option's.
func (v SettingsOption) Type() string { return v.typ }
