package main

import (
	"bufio"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/leasesim/leasesim/cost"
	"github.com/leasesim/leasesim/internal/atomicfile"
	"github.com/leasesim/leasesim/model"
	"github.com/leasesim/leasesim/sweep"
	"github.com/spf13/pflag"
)

// paramValue is a flag holding one value of a model parameter, checked
// against the parameter's range when it is set.
type paramValue struct {
	p model.Param
	c *model.Config
}

func (v paramValue) String() string {
	return string(v.p.AppendValue(nil, v.c.Get(v.p)))
}

func (v paramValue) Set(s string) error {
	n, err := v.p.ParseValue(s)
	if err != nil {
		return err
	}
	v.c.Set(v.p, n)
	return nil
}

func (v paramValue) Type() string {
	if v.p.Bool() {
		return "bool"
	}
	return "int"
}

// addModelFlags registers one flag per model parameter, writing into c,
// except the parameters in skip.
func addModelFlags(fs *pflag.FlagSet, c *model.Config, skip ...model.Param) {
	for p := model.Param(0); int(p) < model.NumParams; p++ {
		if slices.Contains(skip, p) {
			continue
		}
		fs.Var(paramValue{p, c}, p.Flag(), p.Doc())
		if p.Bool() {
			fs.Lookup(p.Flag()).NoOptDefVal = "true"
		}
	}
}

// listValue is a flag holding a list of values of a model parameter, in
// sweep's list syntax.
type listValue struct {
	p    model.Param
	vals *sweep.List
}

func (v listValue) String() string { return v.vals.Format(v.p) }

func (v listValue) Set(s string) error {
	vals, err := sweep.ParseValues(v.p, s)
	if err != nil {
		return err
	}
	*v.vals = vals
	return nil
}

func (v listValue) Type() string {
	if v.p.Bool() {
		return "bools"
	}
	return "list"
}

// addGridFlags registers one list flag per model parameter, writing into g.
func addGridFlags(fs *pflag.FlagSet, g *sweep.Grid, params ...model.Param) {
	for _, p := range params {
		fs.Var(listValue{p, &g.Values[p]}, p.Flag(), p.Doc())
	}
}

// ratesValue is a flag holding a list of positive rates.
type ratesValue struct{ vals *[]float64 }

func (v ratesValue) String() string {
	var b []byte
	for i, f := range *v.vals {
		if i > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendFloat(b, f, 'f', -1, 64)
	}
	return string(b)
}

func (v ratesValue) Set(s string) error {
	vals, err := cost.ParseRates(s)
	if err != nil {
		return err
	}
	*v.vals = vals
	return nil
}

func (v ratesValue) Type() string { return "rates" }

// rateValue is a flag holding one non-negative number.
type rateValue struct{ f *float64 }

func (v rateValue) String() string { return strconv.FormatFloat(*v.f, 'f', -1, 64) }

func (v rateValue) Set(s string) error {
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || !(f >= 0) || f > 1e12 {
		return fmt.Errorf("want a number from 0 to 1e12")
	}
	*v.f = f
	return nil
}

func (v rateValue) Type() string { return "float" }

// positiveValue is a flag holding a positive whole number up to max.
type positiveValue struct {
	n   *int
	max int
}

func (v positiveValue) String() string { return strconv.Itoa(*v.n) }

func (v positiveValue) Set(s string) error {
	n, err := strconv.Atoi(s)
	if err != nil || n < 1 || n > v.max {
		return fmt.Errorf("want a whole number from 1 to %d", v.max)
	}
	*v.n = n
	return nil
}

func (v positiveValue) Type() string { return "int" }

// choiceValue is a flag holding one of a fixed set of words.
type choiceValue struct {
	s       *string
	choices []string
}

func (v choiceValue) String() string { return *v.s }

func (v choiceValue) Set(s string) error {
	if !slices.Contains(v.choices, s) {
		return fmt.Errorf("want one of %s", strings.Join(v.choices, ", "))
	}
	*v.s = s
	return nil
}

func (v choiceValue) Type() string { return "string" }

// outputValue is a flag naming an output file, checked when it is set so
// that a folder, an empty name or a missing folder is refused before any
// work. stdout, if not empty, is the name that means standard output.
type outputValue struct {
	path   *string
	stdout string
}

func (v outputValue) String() string { return *v.path }

func (v outputValue) Set(s string) error {
	if s != v.stdout || s == "" {
		if err := atomicfile.Check(s); err != nil {
			return err
		}
	}
	*v.path = s
	return nil
}

func (v outputValue) Type() string { return "string" }

// addOutputFlag registers an output file flag. With stdout not empty, that
// name (the default) means standard output; otherwise the default "" means
// no file.
func addOutputFlag(fs *pflag.FlagSet, name, stdout, usage string) *string {
	path := stdout
	fs.Var(outputValue{&path, stdout}, name, usage)
	return &path
}

// writeOutput writes through write to path, atomically (atomicfile.Write),
// or to w when path is the name for standard output.
func writeOutput(path, stdout string, w io.Writer, write func(w *bufio.Writer) error) error {
	if path != stdout {
		return atomicfile.Write(path, write)
	}
	bw := bufio.NewWriterSize(w, 1<<16)
	if err := write(bw); err != nil {
		return err
	}
	return bw.Flush()
}

// lengthsValue is a flag holding a distribution of period lengths.
type lengthsValue struct{ l *model.Lengths }

func (v lengthsValue) String() string { return v.l.String() }

func (v lengthsValue) Set(s string) error {
	l, err := model.ParseLengths(s)
	if err != nil {
		return err
	}
	*v.l = l
	return nil
}

func (v lengthsValue) Type() string { return "dist" }
