package sweep

import (
	"github.com/leasesim/leasesim/model"
)

// AppendHeader appends the CSV header of a run record: every parameter of
// the model, then every statistic, then a newline. With a tick, times are
// in seconds and their names say so (model.Tick.Name).
func AppendHeader(buf []byte, t model.Tick) []byte {
	buf = t.AppendNames(buf, model.Params()...)
	for s := model.Stat(0); int(s) < model.NumStats; s++ {
		if s > 0 {
			buf = append(buf, ',')
		}
		buf = append(buf, t.StatName(s)...)
	}
	return append(buf, '\n')
}

// AppendRecord appends one CSV row for configuration c and its statistics,
// in the columns of AppendHeader.
func AppendRecord(buf []byte, t model.Tick, c *model.Config, st *model.Stats) []byte {
	return appendStats(t.AppendValues(buf, c), t, st)
}

// appendStats appends ",started,…,handovers\n".
func appendStats(buf []byte, t model.Tick, st *model.Stats) []byte {
	for s, v := range st.Values() {
		buf = append(buf, ',')
		buf = t.AppendStat(buf, model.Stat(s), v)
	}
	return append(buf, '\n')
}
