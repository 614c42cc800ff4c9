package model

import (
	"fmt"
	"math"
	"math/bits"
	"strconv"
	"strings"
	"time"
)

// TimeKind says whether a parameter is a time in rounds, and which kind:
// a duration in rounds (a lease of 3 rounds) or a round of the run (the
// outage's first round). The kinds convert to real time differently: a
// duration of n rounds lasts n ticks, round t begins (t-1) ticks after the
// run does.
type TimeKind int

// The kinds of parameters.
const (
	NotTime  TimeKind = iota // a count or a toggle
	Duration                 // a number of rounds
	Point                    // a round of the run, 1 … Rounds
)

// Tick is the real length of one round: it turns the model's rounds into
// the seconds a capacity planner thinks in. The zero Tick keeps rounds as
// the unit of every time, as in the publication. A Tick is a whole number
// of milliseconds from MinTick to MaxTick.
type Tick time.Duration

// The ticks leasesim accepts: one round is at least a millisecond and at
// most a day.
const (
	MinTick = Tick(time.Millisecond)
	MaxTick = Tick(24 * time.Hour)
)

// Year is the length of a year in yearly projections: the mean Gregorian
// year, 365.2425 days.
const Year = 31_556_952 * time.Second

// String is the tick in Go's duration syntax, or "1 round" for the zero
// Tick.
func (t Tick) String() string {
	if t == 0 {
		return "1 round"
	}
	return time.Duration(t).String()
}

// RoundsPerYear is the number of rounds in a Year, or 0 for the zero Tick,
// which has no real length.
func (t Tick) RoundsPerYear() float64 {
	if t == 0 {
		return 0
	}
	return float64(Year) / float64(t)
}

// Name is p's name in outputs: with a tick, a time's name ends in "_s",
// its unit, so that a column never holds seconds under a name that says
// rounds.
func (t Tick) Name(p Param) string {
	if t == 0 || p.Time() == NotTime {
		return p.Name()
	}
	return p.Name() + "_s"
}

// StatName is s's name in outputs: with a tick, a statistic counted in
// rounds ("leaderless_rounds") is named for seconds ("leaderless_s").
func (t Tick) StatName(s Stat) string {
	name := s.Name()
	if t == 0 || !s.Time() {
		return name
	}
	return strings.TrimSuffix(name, "_rounds") + "_s"
}

// AppendNames appends the names of params in the unit of t (Name), each
// followed by a comma: the start of a CSV header.
func (t Tick) AppendNames(b []byte, params ...Param) []byte {
	for _, p := range params {
		b = append(b, t.Name(p)...)
		b = append(b, ',')
	}
	return b
}

// AppendValues appends every parameter value of c in the unit of t,
// comma-separated, in column order, without a trailing comma.
func (t Tick) AppendValues(b []byte, c *Config) []byte {
	for p := Param(0); int(p) < NumParams; p++ {
		if p > 0 {
			b = append(b, ',')
		}
		b = t.AppendValue(b, p, c.Get(p))
	}
	return b
}

// AppendValue appends v, a value of p, in the unit of t: as
// Param.AppendValue does for the zero Tick or a parameter that is not a
// time, else in seconds from the run's start (a Point) or long (a Duration).
func (t Tick) AppendValue(b []byte, p Param, v int) []byte {
	switch {
	case t == 0 || p.Time() == NotTime:
		return p.AppendValue(b, v)
	case p.Time() == Point:
		v--
	}
	return t.AppendSeconds(b, v)
}

// AppendStat appends v, a value of statistic s, in the unit of t.
func (t Tick) AppendStat(b []byte, s Stat, v int) []byte {
	if t == 0 || !s.Time() {
		return strconv.AppendInt(b, int64(v), 10)
	}
	return t.AppendSeconds(b, v)
}

// AppendSeconds appends the length of n rounds in seconds, exactly: a
// tick is a whole number of milliseconds, so the seconds have at most
// three decimals (1.5, 0.1, 86400).
func (t Tick) AppendSeconds(b []byte, n int) []byte {
	ms := int64(time.Duration(t) / time.Millisecond)
	hi, lo := bits.Mul64(uint64(abs(n)), uint64(ms))
	if hi != 0 || lo > math.MaxInt64 { // beyond 292 million years: never exact anyway
		return strconv.AppendFloat(b, float64(n)*float64(ms)/1000, 'g', -1, 64)
	}
	if n < 0 {
		b = append(b, '-')
	}
	b = strconv.AppendUint(b, lo/1000, 10)
	if frac := lo % 1000; frac != 0 {
		d := []byte{'.', byte('0' + frac/100), byte('0' + frac/10%10), byte('0' + frac%10)}
		b = append(b, strings.TrimRight(string(d), "0")...)
	}
	return b
}

// Seconds is the length of n rounds in seconds, for plots and sums.
func (t Tick) Seconds(n float64) float64 { return n * time.Duration(t).Seconds() }

// FormatValue writes v, a value of p, as parse.Value reads it: p's own text
// for the zero Tick or a parameter that is not a time, else a Go duration,
// counted from the run's start for a Point. Error messages use it, so
// that they echo values in the unit the flags were given in.
func (t Tick) FormatValue(p Param, v int) string {
	switch {
	case t == 0 || p.Time() == NotTime:
		return string(p.AppendValue(nil, v))
	case p.Time() == Point:
		v--
	}
	return t.FlagDuration(v)
}

// Count writes n rounds for a sentence or a table: the number without a
// tick, the duration with one ("3", "15s").
func (t Tick) Count(n int) string {
	if t == 0 {
		return strconv.Itoa(n)
	}
	return t.DurationOf(n)
}

// DurationOf is the duration of n rounds as a reader takes it
// (FormatDuration: 45d15h43m39s, not 1095h43m39s), or "n rounds" for the
// zero Tick: for sentences and tables in reports.
func (t Tick) DurationOf(n int) string {
	if t == 0 {
		if n == 1 {
			return "1 round"
		}
		return strconv.Itoa(n) + " rounds"
	}
	if n > math.MaxInt64/int(t) {
		return string(t.AppendSeconds(nil, n)) + "s"
	}
	return FormatDuration(time.Duration(n * int(t)))
}

// FlagDuration is the duration of n rounds in Go's duration syntax, as a
// time flag takes it (1095h43m39s), or the number n for the zero Tick.
func (t Tick) FlagDuration(n int) string {
	if t == 0 {
		return strconv.Itoa(n)
	}
	if n > math.MaxInt64/int(t) {
		return string(t.AppendSeconds(nil, n)) + "s"
	}
	return time.Duration(n * int(t)).String()
}

// FormatDuration writes d as Go does below a day (1h30m0s, 1.5s) and from
// a day on in days and the rest, without the rest's zero units: 1d,
// 30d10h, 45d15h43m39s.
func FormatDuration(d time.Duration) string {
	const day = 24 * time.Hour
	if d < day && d > -day {
		return d.String()
	}
	sign := ""
	if d < 0 {
		sign, d = "-", -d
	}
	days, rest := d/day, d%day
	s := sign + strconv.FormatInt(int64(days), 10) + "d"
	if rest == 0 {
		return s
	}
	r := rest.String()
	for _, zero := range []string{"0s", "0m"} { // 10h0m0s is 10h, 5m0s 5m
		if trimmed, ok := strings.CutSuffix(r, zero); ok && trimmed != "" && !strings.HasSuffix(trimmed, ".") && (trimmed[len(trimmed)-1] < '0' || trimmed[len(trimmed)-1] > '9') {
			r = trimmed
		}
	}
	return s + r
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

// FormatLengths writes l in the unit of t, as parse.Lengths reads it:
// Lengths.String for the zero Tick; with a tick, fixed:D, geometric:MEAN
// or lognormal:MEDIAN,SIGMA in durations, to the millisecond.
func (t Tick) FormatLengths(l Lengths) string {
	if t == 0 {
		return l.String()
	}
	d := func(rounds float64) string {
		return time.Duration(rounds * float64(t)).Round(time.Millisecond).String()
	}
	switch l.Kind {
	case Geometric:
		return "geometric:" + d(l.A)
	case LogNormal:
		return "lognormal:" + d(math.Exp(l.A)) + "," + strconv.FormatFloat(l.B, 'f', -1, 64)
	case Empirical:
		return l.String()
	}
	return "fixed:" + d(l.A)
}

// Warnings lists what in c, at this tick (0: in rounds), is valid but
// unsafe, or not what client-go does: a two-leader margin not above zero
// without fencing (Config.TwoLeaderMargin), the warning that leads a
// report; and, with jitter (client-go's followers), a lease that is not
// whole seconds, which client-go's record, holding whole seconds, counts
// short.
func (t Tick) Warnings(c Config) []string {
	var w []string
	if margin, _ := c.TwoLeaderMargin(); c.NoMargin() {
		w = append(w, fmt.Sprintf("two leaders: the lease %s is not longer than the retry period %s and the renew deadline %s together (a two-leader margin of %s), so a follower can take over as soon as, or before, a leader cut off from the record gives up; lengthen the lease past %s, shorten the renew deadline below %s, or turn on fencing",
			t.DurationOf(c.Lease), t.DurationOf(c.RetryPeriod), t.DurationOf(c.RenewDeadline), t.DurationOf(margin),
			t.DurationOf(c.RetryPeriod+c.RenewDeadline), t.DurationOf(c.Lease-c.RetryPeriod)))
	}
	lease := time.Duration(c.Lease) * time.Duration(t)
	if t != 0 && c.Jitter && lease%time.Second != 0 {
		w = append(w, fmt.Sprintf("client-go's record holds the lease in whole seconds: its followers would count %s of the lease's %s; the model counts all of it", lease.Truncate(time.Second), lease))
	}
	return w
}
