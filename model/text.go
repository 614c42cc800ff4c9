package model

import (
	"fmt"
	"strconv"
)

// The text form of parameters and configurations, as every CSV, JSON and
// flag of leasesim writes and reads them.

// AppendValue appends v, a value of p: a whole number, or true or false
// for a toggle.
func (p Param) AppendValue(b []byte, v int) []byte {
	if p.Bool() {
		return strconv.AppendBool(b, v != 0)
	}
	return strconv.AppendInt(b, int64(v), 10)
}

// ParseValue parses one value of p in the form AppendValue writes and
// checks it against p's range; its error says what p accepts.
func (p Param) ParseValue(s string) (int, error) {
	var v int
	var err error
	if p.Bool() {
		var b bool
		b, err = strconv.ParseBool(s)
		if s != "true" && s != "false" {
			err = strconv.ErrSyntax
		}
		v = b2i(b)
	} else {
		v, err = strconv.Atoi(s)
	}
	if err != nil || p.Check(v) != nil {
		return 0, fmt.Errorf("want %s", p.Accepts())
	}
	return v, nil
}

// Params returns every parameter, in column order.
func Params() []Param {
	ps := make([]Param, NumParams)
	for i := range ps {
		ps[i] = Param(i)
	}
	return ps
}

// AppendNames appends the names of params, each followed by a comma: the
// start of a CSV header.
func AppendNames(b []byte, params ...Param) []byte {
	for _, p := range params {
		b = append(b, p.Name()...)
		b = append(b, ',')
	}
	return b
}

// AppendValues appends every parameter value of c, comma-separated, in
// column order, without a trailing comma.
func (c *Config) AppendValues(b []byte) []byte {
	for p := Param(0); int(p) < NumParams; p++ {
		if p > 0 {
			b = append(b, ',')
		}
		b = p.AppendValue(b, c.Get(p))
	}
	return b
}
