package reports

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/leasesim/leasesim/model"
	"github.com/leasesim/leasesim/sweep"
)

// WriteRunTable writes one run as a two-part table of parameters and
// statistics. With a tick, times are in seconds, named so
// (model.Tick.Name), under a line that gives the tick.
func WriteRunTable(w io.Writer, t model.Tick, c model.Config, st model.Stats) error {
	var b strings.Builder
	if t != 0 {
		fmt.Fprintf(&b, "one round = %s; times in seconds\n", t)
	}
	b.WriteString("parameters\n")
	for p := model.Param(0); int(p) < model.NumParams; p++ {
		fmt.Fprintf(&b, "  %-20s %s\n", t.Name(p), t.AppendValue(nil, p, c.Get(p)))
	}
	b.WriteString("statistics\n")
	for s := model.Stat(0); int(s) < model.NumStats; s++ {
		fmt.Fprintf(&b, "  %-20s %s\n", t.StatName(s), t.AppendStat(nil, s, st.Get(s)))
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// WriteRunJSON writes one run as a JSON object: every parameter, then
// every statistic, under their snake_case names. With a tick, times are in
// seconds, named so, after the tick itself as "tick_s".
func WriteRunJSON(w io.Writer, t model.Tick, c model.Config, st model.Stats) error {
	b := []byte("{\n")
	if t != 0 {
		b = fmt.Appendf(b, "  \"tick_s\": %s,\n", t.AppendSeconds(nil, 1))
	}
	for p := model.Param(0); int(p) < model.NumParams; p++ {
		v := t.AppendValue(nil, p, c.Get(p))
		if p.Names() != nil { // a name, such as overlap's allow: a JSON string
			v = strconv.AppendQuote(nil, string(v))
		}
		b = fmt.Appendf(b, "  %q: %s,\n", t.Name(p), v)
	}
	for s := model.Stat(0); int(s) < model.NumStats; s++ {
		b = fmt.Appendf(b, "  %q: %s", t.StatName(s), t.AppendStat(nil, s, st.Get(s)))
		if int(s) < model.NumStats-1 {
			b = append(b, ',')
		}
		b = append(b, '\n')
	}
	b = append(b, "}\n"...)
	_, err := w.Write(b)
	return err
}

// WriteRunCSV writes one run as a CSV header and one row, times in the
// unit of t.
func WriteRunCSV(w io.Writer, t model.Tick, c model.Config, st model.Stats) error {
	_, err := w.Write(sweep.AppendRecord(sweep.AppendHeader(nil, t), t, &c, &st))
	return err
}
