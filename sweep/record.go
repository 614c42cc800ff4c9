package sweep

import (
	"strconv"

	"github.com/leasesim/leasesim/model"
)

// AppendHeader appends the CSV header of a run record: every parameter of
// the model, then every statistic, then a newline.
func AppendHeader(buf []byte) []byte {
	buf = model.AppendNames(buf, model.Params()...)
	for s := model.Stat(0); int(s) < model.NumStats; s++ {
		if s > 0 {
			buf = append(buf, ',')
		}
		buf = append(buf, s.Name()...)
	}
	return append(buf, '\n')
}

// AppendRecord appends one CSV row for configuration c and its statistics,
// in the columns of AppendHeader.
func AppendRecord(buf []byte, c *model.Config, st *model.Stats) []byte {
	return appendStats(c.AppendValues(buf), st)
}

// appendStats appends ",started,…,handovers\n".
func appendStats(buf []byte, st *model.Stats) []byte {
	for _, v := range st.Values() {
		buf = append(buf, ',')
		buf = strconv.AppendInt(buf, int64(v), 10)
	}
	return append(buf, '\n')
}
