package sweep

import "github.com/leasesim/leasesim/model"

// PresetGrids is the grids of a sweep of several presets: g once for each
// of values (what a preset sets where no flag set it), each value a list
// of its own; g alone with none.
func PresetGrids(g Grid, values []map[model.Param]int) []Grid {
	if len(values) == 0 {
		return []Grid{g}
	}
	grids := make([]Grid, 0, len(values))
	for _, vals := range values {
		h := g
		for param, v := range vals {
			h.Values[param] = ListOf(v)
		}
		grids = append(grids, h)
	}
	return grids
}
