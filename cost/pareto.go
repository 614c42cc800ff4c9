package cost

import (
	"math"
	"slices"
)

// The Pareto front is found with a k-d tree of the ranks' four yearly
// measures: whether any rank dominates a given one is a search of the
// tree that skips every box no point of which can, so that a front of
// 100,000 leases takes a fraction of a second rather than the minutes
// comparing every pair took. A leaf compares with dominates itself, and
// a box is skipped only if none of its points could pass dominates, so
// the answer is the pairwise one exactly.

// measures are a rank's four yearly measures, as dominates compares them.
type measures [4]float64

func measuresOf(r Rank) measures {
	return measures{r.MissedLines, r.DoubleLines, r.Delay(), r.Handovers}
}

// kdNode is a node of the tree: the box its points span and either its
// two children or, at a leaf, its points.
type kdNode struct {
	min, max    measures
	left, right int   // children's indices in the tree, -1 at a leaf
	points      []int // a leaf's ranks
}

// kdLeaf is the most points a leaf holds.
const kdLeaf = 16

// kdTree is a k-d tree of ranks' measures; its root is node 0.
type kdTree struct {
	nodes []kdNode
	m     []measures
}

func newKDTree(m []measures) *kdTree {
	t := &kdTree{m: m}
	idx := make([]int, len(m))
	for i := range idx {
		idx[i] = i
	}
	t.build(idx)
	return t
}

// build adds the node of the points idx and returns its index.
func (t *kdTree) build(idx []int) int {
	n := kdNode{left: -1, right: -1}
	n.min, n.max = t.m[idx[0]], t.m[idx[0]]
	for _, i := range idx[1:] {
		for k, v := range t.m[i] {
			n.min[k], n.max[k] = math.Min(n.min[k], v), math.Max(n.max[k], v)
		}
	}
	at := len(t.nodes)
	t.nodes = append(t.nodes, n)
	if len(idx) <= kdLeaf {
		t.nodes[at].points = idx
		return at
	}
	axis := 0
	for k := range n.min {
		if n.max[k]-n.min[k] > n.max[axis]-n.min[axis] {
			axis = k
		}
	}
	slices.SortFunc(idx, func(a, b int) int {
		switch {
		case t.m[a][axis] < t.m[b][axis]:
			return -1
		case t.m[a][axis] > t.m[b][axis]:
			return 1
		}
		return a - b
	})
	half := len(idx) / 2
	left := t.build(idx[:half])
	right := t.build(idx[half:])
	t.nodes[at].left, t.nodes[at].right = left, right
	return at
}

// dominated reports whether some rank of node at dominates ranks[i], by
// dominates.
func (t *kdTree) dominated(at, i int, ranks []Rank) bool {
	n, r := &t.nodes[at], t.m[i]
	better := false
	for k := range r {
		if n.min[k] > r[k]+1e-9 { // every point is worse in k
			return false
		}
		better = better || n.min[k] < r[k]-1e-9
	}
	if !better { // no point is better in any measure
		return false
	}
	if n.left < 0 {
		return slices.ContainsFunc(n.points, func(o int) bool { return dominates(ranks[o], ranks[i]) })
	}
	return t.dominated(n.left, i, ranks) || t.dominated(n.right, i, ranks)
}
