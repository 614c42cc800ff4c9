package sweep

import (
	"fmt"
	"iter"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/leasesim/leasesim/model"
	"github.com/leasesim/leasesim/model/parse"
)

// ListSyntax describes the list syntax in words, for help texts.
const ListSyntax = "comma-separated values and inclusive ranges lo:hi or lo:hi:step, e.g. 1:4,8,16"

// List is one parameter's values in a grid, in order: a sequence of ranges,
// each lo, lo+step, … (a single value is a range of one). A list is never
// expanded: its length and its i-th value come from the ranges, so that a
// list of a billion values costs a few words, and a grid is counted, and
// refused if too large, before anything is run.
type List struct {
	ranges []valueRange
	n      int // values in all ranges
}

// valueRange is n values lo, lo+step, …, lo+(n-1)·step, the first of them value
// number first of its list.
type valueRange struct {
	first, lo, step, n int
}

func (s valueRange) last() int { return s.lo + (s.n-1)*s.step }

// ListOf returns the list of vals, in order.
func ListOf(vals ...int) List {
	var l List
	for _, v := range vals {
		l.add(v, 1, 1)
	}
	return l
}

func (l *List) add(lo, step, n int) {
	l.ranges = append(l.ranges, valueRange{l.n, lo, step, n})
	l.n += n
}

// Len is the number of values.
func (l List) Len() int { return l.n }

// At returns value i, 0 ≤ i < Len().
func (l List) At(i int) int {
	s := l.ranges[l.rangeOf(i)]
	return s.lo + (i-s.first)*s.step
}

// rangeOf returns the index of the range holding value i.
func (l List) rangeOf(i int) int {
	return sort.Search(len(l.ranges), func(k int) bool { return l.ranges[k].first+l.ranges[k].n > i })
}

// slice returns the list of values from … to-1 of l.
func (l List) slice(from, to int) List {
	var s List
	for _, r := range l.ranges {
		if lo, hi := max(from, r.first), min(to, r.first+r.n); lo < hi {
			s.add(r.lo+(lo-r.first)*r.step, r.step, hi-lo)
		}
	}
	return s
}

// min returns the smallest value above floor, or 0 if there is none.
func (l List) min(floor int) int {
	m, found := 0, false
	for _, s := range l.ranges {
		lo := s.lo
		if lo <= floor { // the first value of the range above floor
			k := (floor-s.lo)/s.step + 1
			if k >= s.n {
				continue
			}
			lo = s.lo + k*s.step
		}
		if !found || lo < m {
			m, found = lo, true
		}
	}
	return m
}

// Max returns the largest value, 0 for an empty list.
func (l List) Max() int {
	m := 0
	for _, s := range l.ranges {
		m = max(m, s.last())
	}
	return m
}

// All yields the values in order.
func (l List) All() iter.Seq[int] {
	return func(yield func(int) bool) {
		for _, s := range l.ranges {
			for k := range s.n {
				if !yield(s.lo + k*s.step) {
					return
				}
			}
		}
	}
}

// Format writes the list back in list syntax: ranges as lo:hi or
// lo:hi:step, toggles as false and true.
func (l List) Format(p model.Param) string {
	var b []byte
	for i, s := range l.ranges {
		if i > 0 {
			b = append(b, ',')
		}
		b = p.AppendValue(b, s.lo)
		if s.n > 1 {
			b = fmt.Appendf(b, ":%d", s.last())
			if s.step > 1 {
				b = fmt.Appendf(b, ":%d", s.step)
			}
		}
	}
	return string(b)
}

// maxListItems bounds the comma-separated items of one list, which keeps
// the check for duplicates among ranges quick; a range may hold any number
// of values.
const maxListItems = 1000

// ParseValues parses a list of values of parameter p: comma-separated
// values and inclusive ranges lo:hi or lo:hi:step (whole numbers, or with
// a tick, for a time, durations such as 5s:60s:5s), or for a toggle false,
// true or both. Every value must be in p's range; a duplicate value, an
// empty or reversed range or a step below 1 is an error. Ranges are kept
// as ranges, never expanded.
func ParseValues(t model.Tick, p model.Param, s string) (List, error) {
	var l List
	items := strings.Split(s, ",")
	if len(items) > maxListItems {
		return List{}, fmt.Errorf("%d items: want at most %d (a range lo:hi counts as one)", len(items), maxListItems)
	}
	for _, item := range items {
		item = strings.TrimSpace(item)
		lo, step, n, err := parseItem(t, p, item)
		if err != nil {
			return List{}, err
		}
		l.add(lo, step, n)
	}
	if v, ok := l.duplicate(); ok {
		dup := t.AppendValue(nil, p, v)
		if t != 0 && p.Time() != model.NotTime {
			dup = append(dup, 's')
		}
		return List{}, fmt.Errorf("duplicate value %s", dup)
	}
	return l, nil
}

// parseItem parses one item of a list as a range.
func parseItem(t model.Tick, p model.Param, item string) (lo, step, n int, err error) {
	if p.Bool() {
		switch item {
		case "false":
			return 0, 1, 1, nil
		case "true":
			return 1, 1, 1, nil
		}
		return 0, 0, 0, fmt.Errorf("%q is not a toggle: want false, true or false,true", item)
	}
	if names := p.Names(); names != nil {
		if v := slices.Index(names, item); v >= 0 {
			return v, 1, 1, nil
		}
		return 0, 0, 0, fmt.Errorf("%q is not a value of %s: want %s, or several, comma-separated", item, p.Flag(), p.Accepts())
	}
	parts := strings.Split(item, ":")
	if len(parts) > 3 {
		return 0, 0, 0, fmt.Errorf("%q has too many colons: want lo:hi or lo:hi:step", item)
	}
	if t != 0 && p.Time() != model.NotTime {
		return parseTimeItem(t, p, item, parts)
	}
	nums := []int{0, 0, 1}
	for i, part := range parts {
		if nums[i], err = strconv.Atoi(strings.TrimSpace(part)); err != nil {
			return 0, 0, 0, fmt.Errorf("%q is not a whole number or range: want %s", item, ListSyntax)
		}
	}
	if len(parts) == 1 {
		nums[1] = nums[0]
	}
	lo, hi, step := nums[0], nums[1], nums[2]
	switch {
	case step < 1:
		return 0, 0, 0, fmt.Errorf("range %q has step %d: want a step of 1 or more", item, step)
	case hi < lo:
		return 0, 0, 0, fmt.Errorf("range %q is empty: want lo <= hi", item)
	case p.Validate(lo) != nil || p.Validate(hi) != nil:
		return 0, 0, 0, fmt.Errorf("%q is out of range: want %s", item, p.Accepts())
	}
	return lo, step, (hi-lo)/step + 1, nil
}

// parseTimeItem parses one item of a list of times given as durations:
// lo, lo:hi or lo:hi:step, each a whole number of ticks.
func parseTimeItem(t model.Tick, p model.Param, item string, parts []string) (lo, step, n int, err error) {
	nums := []int{0, 0, 1}
	for i, part := range parts {
		q := p
		if i == 2 {
			q = model.Rounds // a step is at least one tick, whatever p is
		}
		if nums[i], err = parse.Value(t, q, strings.TrimSpace(part)); err != nil {
			return 0, 0, 0, fmt.Errorf("%q in %q: %v", part, item, err)
		}
	}
	if len(parts) == 1 {
		nums[1] = nums[0]
	}
	lo, hi, step := nums[0], nums[1], nums[2]
	if hi < lo {
		return 0, 0, 0, fmt.Errorf("range %q is empty: want lo <= hi", item)
	}
	return lo, step, (hi-lo)/step + 1, nil
}

// duplicate returns the smallest value that two ranges share, if any.
func (l List) duplicate() (int, bool) {
	found, dup := false, math.MaxInt
	for i, a := range l.ranges {
		for _, b := range l.ranges[i+1:] {
			if v, ok := common(a, b); ok && v < dup {
				found, dup = true, v
			}
		}
	}
	return dup, found
}

// common returns the smallest value in both ranges, if any: the values
// x ≡ a.lo (mod a.step) and x ≡ b.lo (mod b.step) are, by the Chinese
// remainder theorem, one residue modulo lcm(a.step, b.step), or none.
// Values and steps are at most the model's bounds (about 10^9), so every
// product below fits in an int.
func common(a, b valueRange) (int, bool) {
	lo, hi := max(a.lo, b.lo), min(a.last(), b.last())
	if lo > hi {
		return 0, false
	}
	g, x, _ := extendedGCD(a.step, b.step) // x·a.step ≡ g (mod b.step)
	d := b.lo - a.lo
	if d%g != 0 {
		return 0, false
	}
	m := b.step / g // a.lo + a.step·t is in b for t ≡ (d/g)·x (mod m)
	t := mod(mod(d/g, m)*mod(x, m), m)
	lcm := a.step * m
	v := a.lo + a.step*t // the smallest common value ≥ a.lo
	if v < lo {
		v += (lo - v + lcm - 1) / lcm * lcm
	}
	return v, v <= hi
}

// extendedGCD returns g = gcd(a, b) and x, y with a·x + b·y = g.
func extendedGCD(a, b int) (g, x, y int) {
	if b == 0 {
		return a, 1, 0
	}
	g, x1, y1 := extendedGCD(b, a%b)
	return g, y1, x1 - (a/b)*y1
}

// mod is a modulo m in 0 … m-1.
func mod(a, m int) int {
	return ((a % m) + m) % m
}
