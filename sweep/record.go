package sweep

import (
	"strconv"

	"github.com/leasesim/leasesim/model"
)

// AppendHeader appends the CSV header of a run record: every parameter of
// the model, then every statistic, then a newline.
func AppendHeader(buf []byte) []byte {
	buf = AppendNames(buf, AllParams()...)
	for s := model.Stat(0); int(s) < model.NumStats; s++ {
		if s > 0 {
			buf = append(buf, ',')
		}
		buf = append(buf, s.Name()...)
	}
	return append(buf, '\n')
}

// AppendNames appends the names of params, each followed by a comma: the
// start of a CSV header.
func AppendNames(buf []byte, params ...model.Param) []byte {
	for _, p := range params {
		buf = append(buf, p.Name()...)
		buf = append(buf, ',')
	}
	return buf
}

// AllParams returns every parameter of the model, in column order.
func AllParams() []model.Param {
	ps := make([]model.Param, model.NumParams)
	for i := range ps {
		ps[i] = model.Param(i)
	}
	return ps
}

// AppendRecord appends one CSV row for configuration c and its statistics,
// in the columns of AppendHeader.
func AppendRecord(buf []byte, c *model.Config, st *model.Stats) []byte {
	return appendStats(AppendParams(buf, c), st)
}

// appendStats appends ",started,…,handovers\n".
func appendStats(buf []byte, st *model.Stats) []byte {
	for _, v := range st.Values() {
		buf = append(buf, ',')
		buf = strconv.AppendInt(buf, int64(v), 10)
	}
	return append(buf, '\n')
}

// AppendParams appends the parameter columns of c, without a trailing comma.
func AppendParams(buf []byte, c *model.Config) []byte {
	for p := model.Param(0); int(p) < model.NumParams; p++ {
		if p > 0 {
			buf = append(buf, ',')
		}
		buf = AppendValue(buf, p, c.Get(p))
	}
	return buf
}

// AppendValue appends one parameter value: a number, or true/false for a
// toggle.
func AppendValue(buf []byte, p model.Param, v int) []byte {
	if p.Bool() {
		return strconv.AppendBool(buf, v != 0)
	}
	return strconv.AppendInt(buf, int64(v), 10)
}
