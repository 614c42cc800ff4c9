package reports

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/leasesim/leasesim/settings"
)

// seconds formats a figure's value: at most three decimals, none if whole.
func seconds(v float64) string {
	switch {
	case math.IsNaN(v):
		return ""
	case math.IsInf(v, 1):
		return "inf"
	case math.IsInf(v, -1):
		return "-inf"
	}
	return strconv.FormatFloat(math.Round(v*1000)/1000, 'f', -1, 64)
}

// SettingsTable writes client-go's settings and their figures as
// `leasesim settings` shows them: the settings, the figures beside
// library-go's formulas (those that disagree marked), the margin's
// reading and what each figure is.
func SettingsTable(w io.Writer, s settings.Settings, p settings.Preset, changed bool, seed uint64, figures []settings.Figure) error {
	var b strings.Builder
	from := "preset " + p.Name
	if changed {
		from += ", changed by flags"
	}
	fmt.Fprintf(&b, "client-go leader election: lease %ss, renew deadline %ss, retry period %ss, %d nodes (%s)\n",
		seconds(s.LeaseDuration.Seconds()), seconds(s.RenewDeadline.Seconds()), seconds(s.RetryPeriod.Seconds()), s.Nodes, from)
	fmt.Fprintf(&b, "in seconds; min and max over the followers' jitter and the fault's phase, median of draws with seed %d\n\n", seed)
	fmt.Fprintf(&b, "%-28s%9s%9s%9s%12s\n", "figure", "min", "median", "max", "library-go")
	var flagged []string
	for _, f := range figures {
		mark := ""
		if f.Disagrees() {
			mark = " *"
			code := f.Min
			if f.ComparedWith == "max" {
				code = f.Max
			}
			flagged = append(flagged, fmt.Sprintf("%s: library-go's %s gives %ss; the code's %s is %ss", f.Metric, f.PublishedFormula, seconds(f.Published), f.ComparedWith, seconds(code)))
		}
		fmt.Fprintf(&b, "%-28s%9s%9s%9s%12s%s\n", f.Metric, seconds(f.Min), seconds(f.Median), seconds(f.Max), seconds(f.Published), mark)
	}
	if margin := figures[5]; margin.Metric == "two_leader_margin" && margin.Min > 0 {
		fmt.Fprintf(&b, "\nThe margin absorbs leader and follower clocks running at rates up to %.1f%% apart (lease / (retry period + renew deadline) − 1),\nor a pause of the leader of up to %ss.\n",
			100*(s.RecordLease().Seconds()/s.GiveUp().Seconds()-1), seconds(figures[6].Min))
	} else {
		b.WriteString("\nNo margin: a follower may take over as soon as, or before, the leader gives up, so a leader cut off from the record\nand back just before its deadline, or paused, or with a slow clock, leads beside its successor.\n")
	}
	if len(flagged) > 0 {
		b.WriteString("\n* disagrees with library-go's published formula:\n")
		for _, l := range flagged {
			fmt.Fprintf(&b, "  %s\n", l)
		}
	}
	b.WriteString("\n")
	for _, f := range figures {
		fmt.Fprintf(&b, "%s: %s\n", f.Metric, f.Doc)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// SettingsJSON writes the settings and their figures as one JSON
// object: the durations and nodes compared, the seed of the medians, and
// each figure with the CSV's fields, in seconds to the millisecond, a
// figure library-go publishes no formula for having a null published_s.
func SettingsJSON(w io.Writer, s settings.Settings, seed uint64, figures []settings.Figure) error {
	type figure struct {
		Metric           string   `json:"metric"`
		Min              float64  `json:"min_s"`
		Median           float64  `json:"median_s"`
		Max              float64  `json:"max_s"`
		Published        *float64 `json:"published_s"`
		PublishedFormula string   `json:"published_formula,omitempty"`
		Doc              string   `json:"doc"`
	}
	ms := func(v float64) float64 { return math.Round(v*1000) / 1000 }
	out := struct {
		Lease   float64  `json:"lease_duration_s"`
		Renew   float64  `json:"renew_deadline_s"`
		Retry   float64  `json:"retry_period_s"`
		Nodes   int      `json:"nodes"`
		Seed    uint64   `json:"seed"`
		Figures []figure `json:"figures"`
	}{ms(s.LeaseDuration.Seconds()), ms(s.RenewDeadline.Seconds()), ms(s.RetryPeriod.Seconds()), s.Nodes, seed, nil}
	for _, f := range figures {
		g := figure{Metric: f.Metric, Min: ms(f.Min), Median: ms(f.Median), Max: ms(f.Max), PublishedFormula: f.PublishedFormula, Doc: f.Doc}
		if !math.IsNaN(f.Published) {
			p := ms(f.Published)
			g.Published = &p
		}
		out.Figures = append(out.Figures, g)
	}
	return indentedJSON(w, out)
}

// SettingsCSV writes the figures as CSV, in seconds to the
// millisecond; a value that is none (a figure library-go publishes no
// formula for, a figure without a bound) is an empty cell, where JSON
// writes null.
func SettingsCSV(w io.Writer, figures []settings.Figure) error {
	cell := func(v float64) string {
		if math.IsInf(v, 0) {
			return ""
		}
		return seconds(v)
	}
	var b strings.Builder
	b.WriteString("metric,min_s,median_s,max_s,published_s\n")
	for _, f := range figures {
		fmt.Fprintf(&b, "%s,%s,%s,%s,%s\n", f.Metric, cell(f.Min), cell(f.Median), cell(f.Max), cell(f.Published))
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// LockTable writes a lock's figures: its title and protocol, the
// figures, the margin's reading (a warning when there is none) and what
// each figure is.
func LockTable(w io.Writer, preset string, lock settings.Lock, changed bool, figures []settings.Figure) error {
	var b strings.Builder
	from := "preset " + preset
	if changed {
		from += ", changed by flags"
	}
	fmt.Fprintf(&b, "%s (%s)\n%s\n", lock.Title(), from, lock.Protocol())
	if lock.Protocol().PerFire {
		b.WriteString("in seconds, from the holder's taking of the lock (or its last extension); min and max over the clocks' difference, median over it (exact)\n\n")
	} else {
		b.WriteString("in seconds, from the holder's last renewal the service saw; min and max over the fault's phase and the library's loops, median over them (exact)\n\n")
	}
	fmt.Fprintf(&b, "%-28s%9s%9s%9s\n", "figure", "min", "median", "max")
	for _, f := range figures {
		fmt.Fprintf(&b, "%-28s%9s%9s%9s\n", f.Metric, seconds(f.Min), seconds(f.Median), seconds(f.Max))
	}
	if margin := figures[5]; lock.Protocol().PerFire && margin.Min > 0 {
		fmt.Fprintf(&b, "\nThe margin absorbs a task running longer than given by up to %ss, or a pause of the holder of up to %ss.\n", seconds(margin.Min), seconds(figures[6].Min))
	} else if margin, crash := figures[5], figures[3]; margin.Metric == "two_leader_margin" && margin.Min > 0 {
		fmt.Fprintf(&b, "\nThe margin absorbs the holder's clock running slow, against the service's or the waiters', by up to %.1f%% (margin / the give-up it follows),\nor a pause of the holder of up to %ss.\n",
			100*margin.Min/(crash.Min-margin.Min), seconds(figures[6].Min))
	} else {
		fmt.Fprintf(&b, "\nNo margin: %s.\n", lock.NoMargin())
	}
	b.WriteString("\n")
	for _, f := range figures {
		fmt.Fprintf(&b, "%s: %s\n", f.Metric, f.Doc)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// LockJSON writes a lock's figures as one JSON object: the preset,
// its title and protocol, the nodes, and each figure with the CSV's
// fields, in seconds to the millisecond; a figure without a bound has a
// null value and no_bound set (−∞ for two_leader_margin, +∞ otherwise).
func LockJSON(w io.Writer, preset string, lock settings.Lock, figures []settings.Figure) error {
	type figure struct {
		Metric    string   `json:"metric"`
		Min       *float64 `json:"min_s"`
		Median    *float64 `json:"median_s"`
		Max       *float64 `json:"max_s"`
		Published *float64 `json:"published_s"`
		NoBound   bool     `json:"no_bound,omitempty"`
		Doc       string   `json:"doc"`
	}
	out := struct {
		Lock     string   `json:"lock"`
		Title    string   `json:"title"`
		Protocol string   `json:"protocol"`
		Figures  []figure `json:"figures"`
	}{preset, lock.Title(), lock.Protocol().String(), nil}
	for _, f := range figures {
		g := figure{Metric: f.Metric, Doc: f.Doc}
		for _, v := range []struct {
			to **float64
			v  float64
		}{{&g.Min, f.Min}, {&g.Median, f.Median}, {&g.Max, f.Max}} {
			if math.IsInf(v.v, 0) {
				g.NoBound = true
				continue
			}
			ms := math.Round(v.v*1000) / 1000
			*v.to = &ms
		}
		out.Figures = append(out.Figures, g)
	}
	return indentedJSON(w, out)
}

// indentedJSON writes v as indented JSON and a newline.
func indentedJSON(w io.Writer, v any) error {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	_, err = w.Write(append(b, '\n'))
	return err
}
