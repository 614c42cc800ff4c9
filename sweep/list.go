package sweep

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/leasesim/leasesim/model"
)

// ListSyntax describes the list syntax in words, for help texts.
const ListSyntax = "comma-separated values and inclusive ranges lo:hi or lo:hi:step, e.g. 1:4,8,16"

// ParseValues parses a list of values of parameter p: comma-separated
// values and inclusive ranges lo:hi or lo:hi:step (whole numbers), or for a
// toggle false, true or both. Every value must be in p's range; a duplicate
// value, an empty or reversed range or a step below 1 is an error.
func ParseValues(p model.Param, s string) ([]int, error) {
	var vals []int
	seen := map[int]bool{}
	for _, item := range strings.Split(s, ",") {
		item = strings.TrimSpace(item)
		items, err := parseItem(p, item)
		if err != nil {
			return nil, err
		}
		for _, v := range items {
			if err := p.Check(v); err != nil {
				return nil, fmt.Errorf("%q is out of range: want %s", item, p.Accepts())
			}
			if seen[v] {
				return nil, fmt.Errorf("duplicate value %s", valueString(p, v))
			}
			seen[v] = true
			vals = append(vals, v)
		}
	}
	return vals, nil
}

func parseItem(p model.Param, item string) ([]int, error) {
	if p.Bool() {
		switch item {
		case "false":
			return []int{0}, nil
		case "true":
			return []int{1}, nil
		}
		return nil, fmt.Errorf("%q is not a toggle: want false, true or false,true", item)
	}
	parts := strings.Split(item, ":")
	nums := make([]int, len(parts))
	for i, part := range parts {
		n, err := strconv.Atoi(strings.TrimSpace(part))
		if err != nil {
			return nil, fmt.Errorf("%q is not a whole number or range: want %s", item, ListSyntax)
		}
		nums[i] = n
	}
	switch len(nums) {
	case 1:
		return nums, nil
	case 2:
		nums = append(nums, 1)
	case 3:
	default:
		return nil, fmt.Errorf("%q has too many colons: want lo:hi or lo:hi:step", item)
	}
	lo, hi, step := nums[0], nums[1], nums[2]
	switch {
	case step < 1:
		return nil, fmt.Errorf("range %q has step %d: want a step of 1 or more", item, step)
	case hi < lo:
		return nil, fmt.Errorf("range %q is empty: want lo <= hi", item)
	}
	if err := p.Check(lo); err != nil {
		return nil, fmt.Errorf("%q is out of range: want %s", item, p.Accepts())
	}
	if err := p.Check(hi); err != nil {
		return nil, fmt.Errorf("%q is out of range: want %s", item, p.Accepts())
	}
	if (hi-lo)/step >= maxListLen {
		return nil, fmt.Errorf("range %q has more than %d values", item, maxListLen)
	}
	var vals []int
	for v := lo; v <= hi; v += step {
		vals = append(vals, v)
	}
	return vals, nil
}

// maxListLen bounds the values one flag may list, so that a typo such as
// 1:1000000000 is refused instead of filling memory.
const maxListLen = 1_000_000

func valueString(p model.Param, v int) string {
	return string(AppendValue(nil, p, v))
}

// FormatValues writes values back in list syntax, one item per value.
func FormatValues(p model.Param, vals []int) string {
	var b []byte
	for i, v := range vals {
		if i > 0 {
			b = append(b, ',')
		}
		b = AppendValue(b, p, v)
	}
	return string(b)
}

// ParseRates parses a list of positive decimal numbers in the same syntax
// as ParseValues, e.g. 6,12 or 1:24:0.5. Duplicates and empty ranges are
// errors.
func ParseRates(s string) ([]float64, error) {
	var vals []float64
	seen := map[float64]bool{}
	for _, item := range strings.Split(s, ",") {
		item = strings.TrimSpace(item)
		parts := strings.Split(item, ":")
		if len(parts) > 3 {
			return nil, fmt.Errorf("%q has too many colons: want lo:hi or lo:hi:step", item)
		}
		nums := make([]float64, len(parts))
		for i, part := range parts {
			f, err := strconv.ParseFloat(strings.TrimSpace(part), 64)
			if err != nil || math.IsInf(f, 0) || math.IsNaN(f) || f <= 0 || f > 1e12 {
				return nil, fmt.Errorf("%q is not a positive number or range: want numbers from above 0 to 1e12, %s", item, ListSyntax)
			}
			nums[i] = f
		}
		items := nums[:1]
		if len(nums) > 1 {
			lo, hi, step := nums[0], nums[1], 1.0
			if len(nums) == 3 {
				step = nums[2]
			}
			if hi < lo {
				return nil, fmt.Errorf("range %q is empty: want lo <= hi", item)
			}
			n := math.Floor((hi-lo)/step*(1+1e-12)) + 1
			if n > maxListLen {
				return nil, fmt.Errorf("range %q has more than %d values", item, maxListLen)
			}
			items = make([]float64, int(n))
			for i := range items {
				// Round away the binary noise of lo + i*step (0.1+0.2).
				items[i], _ = strconv.ParseFloat(strconv.FormatFloat(lo+float64(i)*step, 'g', 12, 64), 64)
			}
		}
		for _, v := range items {
			if seen[v] {
				return nil, fmt.Errorf("duplicate value %s", strconv.FormatFloat(v, 'f', -1, 64))
			}
			seen[v] = true
			vals = append(vals, v)
		}
	}
	return vals, nil
}
