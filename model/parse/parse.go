// Package parse reads what a user writes for the model: a parameter's
// value, a distribution of period lengths, a failure and the tick, from
// flags, settings files, lists, shards and incident lines, in rounds or,
// with a tick, in Go durations (15s, 2m). It reads back what the model
// writes (Param.AppendValue, Tick.FormatValue, Lengths.String,
// Tick.FormatLengths, Failure.String), and its errors say what a value may
// be.
package parse

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/leasesim/leasesim/model"
)

// Tick parses a tick in Go's duration syntax, e.g. 100ms or 1s.
func Tick(s string) (model.Tick, error) {
	d, err := time.ParseDuration(s)
	t := model.Tick(d)
	if err != nil || t < model.MinTick || t > model.MaxTick || d%time.Millisecond != 0 {
		return 0, fmt.Errorf("want a duration from 1ms to 24h, a whole number of milliseconds, e.g. 100ms or 1s")
	}
	return t, nil
}

// Value parses one value of p given in the unit of t. For the zero Tick or
// a parameter that is not a time it is the form Param.AppendValue writes
// (a whole number, true or false for a toggle, or an enumeration's name);
// else a Go duration (15s, 2m, 24h) that is a whole number of ticks,
// counted from the run's start for a Point. The value is checked against
// p's range; the error says what p accepts (Accepts).
func Value(t model.Tick, p model.Param, s string) (int, error) {
	if t == 0 || p.Time() == model.NotTime {
		return value(p, s)
	}
	d, err := time.ParseDuration(s)
	if err != nil || d < 0 {
		return 0, fmt.Errorf("want %s", Accepts(t, p))
	}
	if d%time.Duration(t) != 0 {
		return 0, fmt.Errorf("%s is not a whole number of ticks: want %s", s, Accepts(t, p))
	}
	v := int(d / time.Duration(t))
	if p.Time() == model.Point {
		v++
	}
	if p.Validate(v) != nil {
		return 0, fmt.Errorf("want %s", Accepts(t, p))
	}
	return v, nil
}

// value is Value in rounds: the form Param.AppendValue writes.
func value(p model.Param, s string) (int, error) {
	var v int
	var err error
	if p.Bool() {
		var b bool
		b, err = strconv.ParseBool(s)
		if s != "true" && s != "false" {
			err = strconv.ErrSyntax
		}
		if b {
			v = 1
		}
	} else if names := p.Names(); names != nil {
		if v = slices.Index(names, s); v < 0 {
			err = strconv.ErrSyntax
		}
	} else {
		v, err = strconv.Atoi(s)
	}
	if err != nil || p.Validate(v) != nil {
		return 0, fmt.Errorf("want %s", p.Accepts())
	}
	return v, nil
}

// Accepts says in words which values p accepts in the unit of t.
func Accepts(t model.Tick, p model.Param) string {
	if t == 0 || p.Time() == model.NotTime {
		return p.Accepts()
	}
	lo, hi := p.Range()
	if p.Time() == model.Point {
		lo, hi = lo-1, hi-1
	}
	hi = min(hi, int(math.MaxInt64/int64(t)))
	return fmt.Sprintf("a duration from %s to %s in whole ticks of %s", time.Duration(lo)*time.Duration(t), time.Duration(hi)*time.Duration(t), t)
}

// roundsSyntax is LengthsSyntax in rounds.
const roundsSyntax = "fixed:N, geometric:MEAN or lognormal:MU,SIGMA (rounds)"

// LengthsSyntax describes the syntax of a distribution of period lengths
// in the unit of t.
func LengthsSyntax(t model.Tick) string {
	if t == 0 {
		return roundsSyntax
	}
	return "fixed:D, geometric:MEAN or lognormal:MEDIAN,SIGMA, D, MEAN and MEDIAN durations (fixed's a whole number of ticks)"
}

// Lengths parses a distribution of period lengths in the unit of t. For
// the zero Tick: fixed:N, geometric:MEAN (MEAN >= 1) or lognormal:MU,SIGMA
// (SIGMA >= 0), in rounds, as Lengths.String writes them; with a tick,
// fixed:D and geometric:MEAN take durations, and lognormal:MEDIAN,SIGMA
// the median length as a duration (exp(mu), so mu = ln(MEDIAN / tick)),
// as Tick.FormatLengths writes them.
func Lengths(t model.Tick, s string) (model.Lengths, error) {
	if t == 0 {
		return rounds(s)
	}
	kind, args, _ := strings.Cut(s, ":")
	first, rest, _ := strings.Cut(args, ",")
	d, err := time.ParseDuration(first)
	if err != nil || d <= 0 {
		return model.Lengths{}, fmt.Errorf("%q: want %s", s, LengthsSyntax(t))
	}
	n := float64(d) / float64(t)
	in := ""
	switch kind {
	case "fixed":
		if d%time.Duration(t) != 0 {
			return model.Lengths{}, fmt.Errorf("%q: %s is not a whole number of ticks of %s", s, first, t)
		}
		in = "fixed:" + strconv.FormatFloat(n, 'f', -1, 64)
	case "geometric":
		in = "geometric:" + strconv.FormatFloat(n, 'f', -1, 64)
	case "lognormal":
		in = "lognormal:" + strconv.FormatFloat(math.Log(n), 'f', -1, 64) + "," + rest
	default:
		return model.Lengths{}, fmt.Errorf("%q: want %s", s, LengthsSyntax(t))
	}
	l, err := rounds(in)
	if err != nil {
		return model.Lengths{}, fmt.Errorf("%q, %s in rounds of %s: %v", s, in, t, err)
	}
	return l, nil
}

// rounds is Lengths in rounds.
func rounds(s string) (model.Lengths, error) {
	kind, args, _ := strings.Cut(s, ":")
	nums := strings.Split(args, ",")
	vals := make([]float64, len(nums))
	for i, n := range nums {
		v, err := strconv.ParseFloat(n, 64)
		if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
			return model.Lengths{}, fmt.Errorf("%q: want %s", s, roundsSyntax)
		}
		vals[i] = v
	}
	bad := func(why string) (model.Lengths, error) { return model.Lengths{}, fmt.Errorf("%q: %s", s, why) }
	switch {
	case kind == "fixed" && len(vals) == 1:
		if vals[0] != math.Trunc(vals[0]) || vals[0] < 1 || vals[0] > model.MaxRounds {
			return bad(fmt.Sprintf("want a whole number of rounds from 1 to %d", model.MaxRounds))
		}
		return model.Lengths{Kind: model.Fixed, A: vals[0]}, nil
	case kind == "geometric" && len(vals) == 1:
		if vals[0] < 1 || vals[0] > model.MaxRounds {
			return bad(fmt.Sprintf("want a mean from 1 to %d rounds", model.MaxRounds))
		}
		return model.Lengths{Kind: model.Geometric, A: vals[0]}, nil
	case kind == "lognormal" && len(vals) == 2:
		if vals[1] < 0 || vals[0] > math.Log(model.MaxRounds) || vals[1] > 10 {
			return bad(fmt.Sprintf("want MU up to %.1f and SIGMA from 0 to 10", math.Log(model.MaxRounds)))
		}
		return model.Lengths{Kind: model.LogNormal, A: vals[0], B: vals[1]}, nil
	}
	return model.Lengths{}, fmt.Errorf("%q: want %s", s, roundsSyntax)
}

// Failure reads a failure as model.Failure's String writes it: a kind by
// its name (model.Kinds), KIND:VALUE for a kind that takes a parameter.
func Failure(text string) (model.Failure, error) {
	name, value, hasValue := strings.Cut(text, ":")
	var names []string
	for _, b := range model.Kinds() {
		if b.Name != name {
			names = append(names, b.Name)
			continue
		}
		switch {
		case b.ValueName == "" && hasValue:
			return model.Failure{}, fmt.Errorf("kind %q: %s takes no parameter", text, name)
		case b.ValueName == "":
			return model.Failure{Kind: b.Kind}, nil
		}
		v, err := strconv.Atoi(value)
		if !hasValue || err != nil {
			return model.Failure{}, fmt.Errorf("kind %q: want %s:VALUE, VALUE %s", text, name, b.ValueName)
		}
		return model.Failure{Kind: b.Kind, Value: v}, nil
	}
	return model.Failure{}, fmt.Errorf("kind %q: want one of %s", text, strings.Join(names, ", "))
}
