package cost

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// RatesSyntax describes the syntax of a list of rates in words.
const RatesSyntax = "comma-separated numbers and inclusive ranges lo:hi or lo:hi:step, e.g. 6,12 or 1:24:0.5"

// ParseRates parses a list of positive decimal numbers in the list
// syntax of sweep.ParseValues, e.g. 6,12 or 1:24:0.5. Duplicates and empty ranges are
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
				return nil, fmt.Errorf("%q is not a positive number or range: want numbers from above 0 to 1e12, %s", item, RatesSyntax)
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
			if n > maxRates {
				return nil, fmt.Errorf("range %q has more than %d values", item, maxRates)
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

// maxRates bounds the values one list of rates may hold, so that a typo
// such as 1:1e9:0.001 is refused instead of filling memory.
const maxRates = 1_000_000
