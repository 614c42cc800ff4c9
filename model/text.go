package model

import (
	"fmt"
	"slices"
	"strconv"
)

// The text form of parameters and configurations, as every CSV, JSON and
// flag of leasesim writes and reads them.

// AppendValue appends v, a value of p: a whole number, true or false for
// a toggle, or an enumeration's name for the value.
func (p Param) AppendValue(b []byte, v int) []byte {
	if p.Bool() {
		return strconv.AppendBool(b, v != 0)
	}
	if names := p.Names(); names != nil && v >= 0 && v < len(names) {
		return append(b, names[v]...)
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
	} else if names := p.Names(); names != nil {
		if v = slices.Index(names, s); v < 0 {
			err = strconv.ErrSyntax
		}
	} else {
		v, err = strconv.Atoi(s)
	}
	if err != nil || p.Validate(v) != nil {
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
