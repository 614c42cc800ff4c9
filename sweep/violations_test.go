package sweep_test

import (
	"bytes"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/leasesim/leasesim/model"
	"github.com/leasesim/leasesim/sweep"
)

// TestViolationTable: check's table of violations has a sweep's
// parameter columns, named and written as a sweep's (AppendRecord's
// text up to the statistics), then the message and the command, quoted
// where they hold a comma or a quote, a line break written as a space;
// with a tick, times in seconds under their names in seconds; and no
// violation is the header alone.
func TestViolationTable(t *testing.T) {
	c := model.Default()
	c.Nodes, c.Lease, c.Fencing = 3, 15, true
	for _, tt := range []struct {
		tick               model.Tick
		violation, command string
		want               string // the row after the parameters
	}{
		{0, "two leaders in round 3", "leasesim run --nodes=3", "two leaders in round 3,leasesim run --nodes=3"},
		{0, `computed {A:1}, round by round {A:2} "x"`, "leasesim replay --trace a,b.txt", `"computed {A:1}, round by round {A:2} ""x""","leasesim replay --trace a,b.txt"`},
		{model.Tick(time.Second), "one\nline,\r\nbreaks", "leasesim run --tick=1s", `"one line,  breaks",leasesim run --tick=1s`},
	} {
		var b bytes.Buffer
		table, err := sweep.NewViolationTable(&b, tt.tick)
		if err != nil {
			t.Fatal(err)
		}
		// A sweep's header and row, but for the statistics.
		firstFields := func(line []byte) string {
			fields := strings.Split(strings.TrimSuffix(string(line), "\n"), ",")
			if len(fields) != model.NumParams+model.NumStats {
				t.Fatalf("%q: %d fields", line, len(fields))
			}
			return strings.Join(fields[:model.NumParams], ",")
		}
		if want := firstFields(sweep.AppendHeader(nil, tt.tick)) + ",violation,command\n"; b.String() != want {
			t.Errorf("tick %v: header %q, want %q", tt.tick, b.String(), want)
		}
		b.Reset()
		if err := table.Add(c, errors.New(tt.violation), tt.command); err != nil {
			t.Fatal(err)
		}
		if want := firstFields(sweep.AppendRecord(nil, tt.tick, &c, &model.Stats{})) + "," + tt.want + "\n"; b.String() != want {
			t.Errorf("tick %v: row\n%q, want\n%q", tt.tick, b.String(), want)
		}
	}
}
