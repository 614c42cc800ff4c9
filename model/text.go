package model

import "strconv"

// The text form of parameters and configurations, as every CSV, JSON and
// flag of leasesim writes them; package parse reads them.

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

// Params returns every parameter, in column order.
func Params() []Param {
	ps := make([]Param, NumParams)
	for i := range ps {
		ps[i] = Param(i)
	}
	return ps
}
