package shardenv

import (
	"fmt"
	"strconv"
	"strings"
)

// ParseKN reads a shard given by hand, K/N with 0 ≤ K < N: shard K of N.
// Its error says what --shard takes, this or Syntax.
func ParseKN(s string) (k, n int, err error) {
	ks, ns, ok := strings.Cut(s, "/")
	k, err1 := strconv.Atoi(ks)
	n, err2 := strconv.Atoi(ns)
	if !ok || err1 != nil || err2 != nil || n < 1 || k < 0 || k >= n {
		return 0, 0, fmt.Errorf("want K/N with 0 <= K < N, e.g. 0/4, or %s", Syntax)
	}
	return k, n, nil
}
