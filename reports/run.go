package reports

import (
	"fmt"
	"io"
	"strings"

	"github.com/leasesim/leasesim/model"
	"github.com/leasesim/leasesim/sweep"
)

// WriteRunTable writes one run as a two-part table of parameters and
// statistics.
func WriteRunTable(w io.Writer, c model.Config, st model.Stats) error {
	var b strings.Builder
	b.WriteString("parameters\n")
	for p := model.Param(0); int(p) < model.NumParams; p++ {
		fmt.Fprintf(&b, "  %-20s %s\n", p.Name(), p.AppendValue(nil, c.Get(p)))
	}
	b.WriteString("statistics\n")
	for s := model.Stat(0); int(s) < model.NumStats; s++ {
		fmt.Fprintf(&b, "  %-20s %d\n", s.Name(), st.Get(s))
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// WriteRunJSON writes one run as a JSON object: every parameter, then
// every statistic, under their snake_case names.
func WriteRunJSON(w io.Writer, c model.Config, st model.Stats) error {
	b := []byte("{\n")
	for p := model.Param(0); int(p) < model.NumParams; p++ {
		b = fmt.Appendf(b, "  %q: %s,\n", p.Name(), p.AppendValue(nil, c.Get(p)))
	}
	for s := model.Stat(0); int(s) < model.NumStats; s++ {
		b = fmt.Appendf(b, "  %q: %d", s.Name(), st.Get(s))
		if int(s) < model.NumStats-1 {
			b = append(b, ',')
		}
		b = append(b, '\n')
	}
	b = append(b, "}\n"...)
	_, err := w.Write(b)
	return err
}

// WriteRunCSV writes one run as a CSV header and one row.
func WriteRunCSV(w io.Writer, c model.Config, st model.Stats) error {
	_, err := w.Write(sweep.AppendRecord(sweep.AppendHeader(nil), &c, &st))
	return err
}

// WriteTrace writes the trace of c under schedule s as text
// (model.AppendTrace).
func WriteTrace(w io.Writer, c model.Config, s model.Schedule) error {
	b, err := model.AppendTrace(nil, c, s)
	if err != nil {
		return err
	}
	_, err = w.Write(b)
	return err
}
