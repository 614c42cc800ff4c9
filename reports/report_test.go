package reports_test

import (
	"bytes"
	"context"
	"fmt"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/leasesim/leasesim/cost"
	"github.com/leasesim/leasesim/incident"
	"github.com/leasesim/leasesim/internal/golden"
	"github.com/leasesim/leasesim/model"
	"github.com/leasesim/leasesim/reports"
	"github.com/leasesim/leasesim/study"
)

func publicationReview(t *testing.T) *study.Review {
	t.Helper()
	rv, err := study.NewReview(context.Background(), model.Default(), study.DefaultReviewOptions(model.Default()))
	if err != nil {
		t.Fatal(err)
	}
	return rv
}

// TestReportFiles compares every text and CSV file of the default report,
// the numbers behind each plot included, with its golden file.
func TestReportFiles(t *testing.T) {
	for _, f := range reports.Files(publicationReview(t)) {
		t.Run(f.Name, func(t *testing.T) {
			var b bytes.Buffer
			if err := f.Write(&b); err != nil {
				t.Fatal(err)
			}
			golden.Check(t, f.Name, b.Bytes())
		})
	}
}

// TestZoneReport: the reading of a scenario unlike the publication's (a zone of
// two of three nodes, a longer lease and outage).
func TestZoneReport(t *testing.T) {
	base := model.Default()
	base.Nodes, base.Down, base.Lease, base.Outage, base.RereadPeriod = 3, 2, 4, 7, 4
	opt := study.DefaultReviewOptions(base)
	opt.EventsPerYear, opt.LinesPerBatch, opt.Replicas = []float64{4}, 1000, 50
	rv, err := study.NewReview(context.Background(), base, opt)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range reports.Files(rv) {
		if f.Name != "report.md" {
			continue
		}
		var b bytes.Buffer
		if err := f.Write(&b); err != nil {
			t.Fatal(err)
		}
		golden.Check(t, "zone-report.md", b.Bytes())
	}
}

// kubernetesReview is a review in real settings: client-go's defaults
// (--preset kubernetes) at 1 s rounds, 3 nodes, the leader cut off for 30 s
// a minute into a 10-minute run with a batch every 2 minutes.
func kubernetesReview(t *testing.T) *study.Review {
	t.Helper()
	base := model.Default()
	base.Nodes, base.Lease, base.RereadPeriod, base.RetryPeriod, base.RenewDeadline, base.Jitter = 3, 15, 0, 2, 10, true
	base.Outage, base.Start, base.Rounds, base.Period = 30, 61, 600, 120
	opt := study.DefaultReviewOptions(base)
	opt.Tick = model.Tick(time.Second)
	opt.RoundsPerYear, opt.Replicas = opt.Tick.RoundsPerYear(), 20
	opt.Mix = []cost.MixEntry{{Outage: 5, Weight: 0.7}, {Outage: 30, Weight: 0.2}, {Outage: 120, Weight: 0.1}}
	opt.Up, opt.Down = study.DeploymentFailures(base, opt) // as leasesim report does with a tick
	opt.Weights = cost.Weights{MissedLine: 0.5, DoubleLine: 0.5, DelayedRound: 100.0 / 3600, Handover: 20}
	rv, err := study.NewReview(context.Background(), base, opt)
	if err != nil {
		t.Fatal(err)
	}
	return rv
}

// TestKubernetesReport: a review with a tick speaks seconds throughout. Its
// report.md and measure.txt are golden; no text file says "round" of a
// time, except the lines that give the length of one round, and the
// round-by-round trace, which opens with that line; every CSV names its
// times in seconds.
func TestKubernetesReport(t *testing.T) {
	rv := kubernetesReview(t)
	if got, want := rv.Ranges.Leases, []int{15, 20, 25, 30, 35, 40, 45, 50, 55, 60}; !slices.Equal(got, want) {
		t.Errorf("lease sweep %v, want %v: multiples of 15s/3 that client-go accepts beside a 10s renew deadline", got, want)
	}
	// What may say "round" with a tick: the length of one, the model's
	// name, and the run's length under its parameter name.
	roundsOf := regexp.MustCompile("one round = 1s|One round of the model is 1s|rounds of 1s|round model|`rounds_s`|\\| rounds_s \\|")
	for _, f := range reports.Files(rv) {
		var b bytes.Buffer
		if err := f.Write(&b); err != nil {
			t.Fatal(err)
		}
		switch f.Name {
		case "report.md":
			golden.Check(t, "kubernetes-report.md", b.Bytes())
		case "measure.txt":
			golden.Check(t, "kubernetes-measure.txt", b.Bytes())
		case "candidates.csv":
			golden.Check(t, "kubernetes-candidates.csv", b.Bytes())
		case "timeline.txt":
			if !strings.HasPrefix(b.String(), "one round = 1s: round t ends 1s·t after the run begins\n") {
				t.Errorf("timeline.txt does not open with the length of a round:\n%.200s", b.String())
			}
			continue
		}
		for i, line := range strings.Split(b.String(), "\n") {
			if strings.HasSuffix(f.Name, ".csv") {
				if i == 0 && (strings.Contains(line, "_rounds") || !strings.Contains(line, "lease_s")) {
					t.Errorf("%s: header %q names a time in rounds", f.Name, line)
				}
				continue
			}
			if strings.Contains(roundsOf.ReplaceAllString(line, ""), "round") {
				t.Errorf("%s:%d says rounds with a tick: %q", f.Name, i+1, line)
			}
		}
	}
}

// TestFigures: each plot is a PNG of the expected size that is not blank,
// and matches its golden image within a small per-pixel tolerance.
func TestFigures(t *testing.T) {
	for _, f := range reports.Figures(publicationReview(t)) {
		t.Run(f.Name, func(t *testing.T) {
			var b bytes.Buffer
			if _, err := f.WriteTo(&b); err != nil {
				t.Fatal(err)
			}
			img, err := png.Decode(&b)
			if err != nil {
				t.Fatal(err)
			}
			w, h := f.Pixels()
			if got := img.Bounds().Size(); got.X != w || got.Y != h {
				t.Errorf("size %v, want %dx%d", got, w, h)
			}
			if w < 800 || h < 500 {
				t.Errorf("%dx%d is smaller than 800x500", w, h)
			}
			colours := map[uint32]bool{}
			inked := 0
			for y := img.Bounds().Min.Y; y < img.Bounds().Max.Y; y++ {
				for x := img.Bounds().Min.X; x < img.Bounds().Max.X; x++ {
					r, g, b, _ := img.At(x, y).RGBA()
					colours[r>>8<<16|g>>8<<8|b>>8] = true
					if r+g+b < 3*0xf000 {
						inked++
					}
				}
			}
			if share := float64(inked) / float64(w*h); share < 0.02 || len(colours) < 8 {
				t.Errorf("looks blank: %.1f%% of pixels inked, %d colours", 100*share, len(colours))
			}
			var again bytes.Buffer
			f.WriteTo(&again)
			golden.CheckImage(t, f.Name, again.Bytes(), 0.05)
		})
	}
}

// TestWriteDir: the report lands whole in the folder, with nothing else;
// a folder that cannot be made leaves nothing behind.
func TestWriteDir(t *testing.T) {
	rv := publicationReview(t)
	dir := filepath.Join(t.TempDir(), "out")
	if err := reports.WriteDir(context.Background(), rv, dir, nil); err != nil {
		t.Fatal(err)
	}
	var want []string
	for _, f := range reports.Files(rv) {
		want = append(want, f.Name)
	}
	for _, f := range reports.Figures(rv) {
		want = append(want, f.Name)
	}
	sort.Strings(want)
	entries, _ := os.ReadDir(dir)
	var got []string
	for _, e := range entries {
		got = append(got, e.Name())
	}
	if len(got) != len(want) {
		t.Fatalf("folder holds %v, want %v", got, want)
	}
	for i := range got {
		if got[i] != want[i] {
			t.Fatalf("folder holds %v, want %v", got, want)
		}
	}

	blocker := filepath.Join(t.TempDir(), "file")
	os.WriteFile(blocker, []byte("x"), 0o644)
	if err := reports.WriteDir(context.Background(), rv, filepath.Join(blocker, "out"), nil); err == nil {
		t.Error("WriteDir under a regular file succeeded")
	}
	if b, _ := os.ReadFile(blocker); string(b) != "x" {
		t.Error("the blocking file changed")
	}
}

// TestReplayFigure: an incident's timeline under three leases is a PNG of
// the expected size that matches its golden image within a small
// per-pixel tolerance.
func TestReplayFigure(t *testing.T) {
	f, err := os.Open(filepath.Join("..", "testdata", "incidents", "api-partition.txt"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	tick := model.Tick(time.Second)
	in, err := incident.Parse(f, tick, time.Time{})
	if err != nil {
		t.Fatal(err)
	}
	var rows []reports.ReplayRow
	for _, lease := range []int{15, 30, 60} {
		c := model.Default()
		c.Nodes, c.Lease, c.RereadPeriod, c.RenewDeadline, c.RetryPeriod, c.Jitter, c.Period, c.Rounds = 3, lease, 0, 10, 2, true, 60, 300
		c = in.Apply(c)
		var r model.Runner
		run, err := in.Spans(&r, c)
		if err != nil {
			t.Fatal(err)
		}
		one := incident.Spread{Sample: incident.Sample{Phases: 1, Seeds: 1}, Runs: []incident.Run{run}}
		rows = append(rows, reports.ReplayRow{Name: fmt.Sprintf("lease %ds", lease), Config: c, Spread: one, Run: run})
	}
	fig := reports.ReplayFigure(tick, in, rows)
	var b bytes.Buffer
	if _, err := fig.WriteTo(&b); err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(b.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	if w, h := fig.Pixels(); img.Bounds().Dx() != w || img.Bounds().Dy() != h {
		t.Errorf("size %v, want %dx%d", img.Bounds().Size(), w, h)
	}
	golden.CheckImage(t, "replay.png", b.Bytes(), 0.05)
}

// TestRecommendationAgainstBruteForce: the lease report.md tells the
// reader to set is what a brute-force search over the candidates finds:
// every phase of every outage of the mix run for every lease, batches of
// 3 rounds counted by their parts, the yearly sums priced, and the rule
// applied: the leases within 0.05 or 5% of the current cost of the least
// cost the same, the current lease kept if among them, else the first
// (the round model has no safety figures to order them by). Over the
// prices tried the answer moves (lease 6, lease 1), and the report's
// sentence follows it.
func TestRecommendationAgainstBruteForce(t *testing.T) {
	base := model.Default()
	base.Nodes, base.Lease, base.PersistentTrigger, base.BatchLen = 3, 4, true, 3
	opt := study.DefaultReviewOptions(base)
	opt.Replicas, opt.EventsPerYear = 2, []float64{10}
	opt.CandidateLeases = []int{1, 2, 3, 5, 6, 8}
	opt.Mix = []cost.MixEntry{{Outage: 2, Weight: 0.6}, {Outage: 5, Weight: 0.3}, {Outage: 9, Weight: 0.1}}
	verdict := regexp.MustCompile(`\*\*(?:Set the lease to|Keep the lease at|Leases) ([^*]+?)(?: tie)?\*\*`)
	number := regexp.MustCompile(`\d+`)
	seen := map[string]bool{}
	for _, w := range []cost.Weights{
		{MissedLine: 1, DoubleLine: 1, DelayedRound: 50, Handover: 100},
		{MissedLine: 1, DoubleLine: 5, Handover: 1},
		{DelayedRound: 1000, Handover: 1},
		{MissedLine: 0.01, Handover: 1000},
	} {
		opt.Weights = w
		rv, err := study.NewReview(context.Background(), base, opt)
		if err != nil {
			t.Fatal(err)
		}
		var md bytes.Buffer
		for _, f := range reports.Files(rv) {
			if f.Name == "report.md" {
				if err := f.Write(&md); err != nil {
					t.Fatal(err)
				}
			}
		}
		m := verdict.FindStringSubmatch(md.String())
		if m == nil {
			t.Fatalf("prices %+v: report.md names no lease to set:\n%.1500s", w, md.String())
		}
		said := number.FindString(m[1])

		// Every candidate's yearly cost, by brute force; those within the
		// 0.05 the report shows costs to are a tie.
		leases := append(slices.Clone(opt.CandidateLeases), base.Lease)
		slices.Sort(leases)
		costs := make([]float64, len(leases))
		var r model.Runner
		for i, lease := range leases {
			for _, e := range opt.Mix {
				c := base
				c.Lease, c.Outage = lease, e.Outage
				phases, sum := cost.Phases(c), 0.0
				for k := range phases {
					c.Start = c.Period + 1 + k
					c.Rounds = c.Start + cost.SettleRounds(c)
					st, err := r.Run(c)
					if err != nil {
						t.Fatal(err)
					}
					lost := float64((st.Missed+st.Unresolved)*c.BatchLen+st.MissedParts) / float64(c.BatchLen)
					sum += w.MissedLine*float64(opt.LinesPerBatch)*lost + w.DoubleLine*float64(opt.LinesPerBatch)*float64(st.DoubledParts)/float64(c.BatchLen) +
						w.DelayedRound*float64(st.DelayedRounds) + w.Handover*float64(st.Handovers)
				}
				costs[i] += e.Weight * opt.EventsPerYear[0] * sum / float64(phases)
			}
		}
		var cheapest []string
		current := slices.Index(leases, base.Lease)
		for i, lease := range leases {
			if costs[i] <= slices.Min(costs)+0.05+opt.Material*costs[current] {
				cheapest = append(cheapest, fmt.Sprint(lease))
			}
		}
		want := cheapest[0]
		if slices.Contains(cheapest, fmt.Sprint(base.Lease)) {
			want = fmt.Sprint(base.Lease)
		}
		if said != want {
			t.Errorf("prices %+v: report.md says %q, the brute-force search finds %s (costs %v)", w, m[0], want, costs)
		}
		seen[said] = true
	}
	if len(seen) < 2 {
		t.Errorf("every price chose the same lease %v: the test cannot tell a search from a constant", seen)
	}
}

// TestCandidatesAgreeWithAnswer: candidates.csv marks recommended exactly
// the candidates report.md's answer names as lease/renew deadline/retry
// period (the settings to set and those as cheap, the settings to keep, or
// the Pareto front), and current the base's settings alone.
func TestCandidatesAgreeWithAnswer(t *testing.T) {
	rv := kubernetesReview(t)
	for _, tt := range []struct {
		name    string
		weights cost.Weights
		answer  string // how the sentence that names the leases begins
	}{
		{"priced", rv.Weights, "**"},
		{"handovers dear", cost.Weights{MissedLine: 0.5, Handover: 1000}, "**"},
		{"unpriced", cost.Weights{}, "No prices were given"},
	} {
		rv.Weights = tt.weights
		md, csv := rendered(t, rv, "report.md"), rendered(t, rv, "candidates.csv")
		var answer string
		for _, line := range strings.Split(md.String(), "\n") {
			if strings.HasPrefix(line, tt.answer) && !strings.HasPrefix(line, "**Warning") {
				answer, _, _ = strings.Cut(line, " a year") // the names come before the first cost
				break
			}
		}
		rows := strings.Split(strings.TrimSpace(csv.String()), "\n")[1:]
		named := 0
		for _, row := range rows {
			f := strings.Split(row, ",")
			var settings [3]string // lease/renew deadline/retry period, as the answer names a candidate
			for i := range settings {
				n, _ := strconv.Atoi(f[i])
				settings[i] = (time.Duration(n) * time.Second).String()
			}
			lease, current, recommended := strings.Join(settings[:], "/"), f[8] == "true", f[9] == "true"
			if current != (f[0] == strconv.Itoa(rv.Base.Lease) && f[1] == strconv.Itoa(rv.Base.RenewDeadline) && f[2] == strconv.Itoa(rv.Base.RetryPeriod)) {
				t.Errorf("%s: %s: current %t", tt.name, row, current)
			}
			if recommended {
				named++
			}
			if in := regexp.MustCompile(`\b` + lease + `\b`).MatchString(answer); in != recommended && !(recommended && strings.Contains(answer, "every candidate")) {
				t.Errorf("%s: lease %s recommended %t, but the answer %q names it: %t", tt.name, lease, recommended, answer, in)
			}
		}
		if named == 0 {
			t.Errorf("%s: candidates.csv recommends no lease; the answer: %q", tt.name, answer)
		}
	}
}

// TestListedCandidates: candidates listed by hand are ranked with the
// grid's: report.md's table says what each changes beyond the lease
// settings and which preset it is, candidates.csv gives the node count,
// fencing, trigger policy and preset in its last columns, a listed lease
// without a two-leader margin is recommended only fenced, and the
// settings report.md's answer sets are candidates.csv's recommended row.
func TestListedCandidates(t *testing.T) {
	base := model.Default()
	base.Nodes, base.Lease, base.RereadPeriod, base.RetryPeriod, base.RenewDeadline, base.Jitter = 3, 15, 0, 2, 10, true
	base.Outage, base.Start, base.Rounds, base.Period, base.BatchLen = 30, 61, 600, 120, 20
	opt := study.DefaultReviewOptions(base)
	opt.Tick = model.Tick(time.Second)
	opt.RoundsPerYear, opt.Replicas = 1e4, 2 // a short year: the node-count study is not what is tested
	opt.Mix = []cost.MixEntry{{Outage: 5, Weight: 0.6}, {Outage: 30, Weight: 0.3}, {Outage: 120, Weight: 0.1}}
	opt.CandidateLeases, opt.CandidateRenewDeadlines, opt.CandidateRetryPeriods = []int{15}, []int{10}, []int{2}
	opt.Presets = []study.PresetRounds{{Name: "kubernetes", Lease: 15, RenewDeadline: 10, RetryPeriod: 2}, {Name: "openshift", Lease: 137, RenewDeadline: 107, RetryPeriod: 26}}
	current := cost.CandidateOf(base)
	with := func(edit func(*cost.Candidate)) cost.Candidate {
		k := current
		edit(&k)
		return k
	}
	list := []cost.Candidate{
		current.WithLease(45, 40, 2),
		with(func(k *cost.Candidate) { *k = k.WithLease(45, 40, 2); k.Nodes = 2 }),
		with(func(k *cost.Candidate) { k.PersistentTrigger = true }),
		with(func(k *cost.Candidate) { k.Lease = 12 }),                   // a two-leader margin of 0
		with(func(k *cost.Candidate) { k.Lease, k.Fencing = 12, true }),  // the same, fenced
		with(func(k *cost.Candidate) { *k = k.WithLease(137, 107, 26) }), // openshift
	}
	// name is how report.md names a row of candidates.csv (these vary
	// the node count, fencing and the persistent trigger).
	name := func(f []string) string {
		var times []string
		for _, v := range f[:3] {
			n, _ := strconv.Atoi(v)
			times = append(times, (time.Duration(n) * time.Second).String())
		}
		n := strings.Join(times, "/")
		var also []string
		if f[10] != "3" {
			also = append(also, f[10]+" nodes")
		}
		if f[11] == "true" {
			also = append(also, "fencing")
		}
		if f[12] == "true" {
			also = append(also, "persistent trigger")
		}
		if also != nil {
			n += " with " + strings.Join(also, " and ")
		}
		return n
	}
	answer := regexp.MustCompile(`(?m)^\*\*Verdict: ([^*]+)\*\* \(([^)]+)\): `)
	for _, tt := range []struct {
		name     string
		weights  cost.Weights
		drop     int // a listed candidate left out, or -1
		top, say string
	}{
		{"lines", cost.Weights{MissedLine: 1, DoubleLine: 5}, -1, "15s/10s/2s with persistent trigger", "turn on the persistent trigger"},
		{"handovers", cost.Weights{MissedLine: 0.01, Handover: 1000}, -1, "2m17s/1m47s/26s", "use the openshift preset: raise the renew deadline to 1m47s, the lease to 2m17s and the retry period to 26s"},
		{"fenced", cost.Weights{MissedLine: 1, DoubleLine: 5}, 2, "12s/10s/2s with fencing", "lower the lease to 12s, and turn on fencing"},
	} {
		opt.Weights = tt.weights
		opt.CandidateList = slices.Delete(slices.Clone(list), max(tt.drop, 0), max(tt.drop+1, 0))
		rv, err := study.NewReview(context.Background(), base, opt)
		if err != nil {
			t.Fatal(err)
		}
		md, csv := rendered(t, rv, "report.md"), rendered(t, rv, "candidates.csv")
		m := answer.FindStringSubmatch(md.String())
		if m == nil || m[1] != tt.say || m[2] != tt.top {
			t.Errorf("%s: the answer %q, want **%s** (%s)", tt.name, m, tt.say, tt.top)
		}
		rows := strings.Split(strings.TrimSpace(csv.String()), "\n")
		if !strings.Contains(rows[0], ",current,recommended,nodes,fencing,persistent_trigger,catch_up_window_s,catch_up_once,idempotency_key,overlap,on_cut,runs_in,protocol,lock_delay_s,jitter,acquire_wait_s,disconnect_delay_s,preset,") || len(rows) != 2+len(opt.CandidateList) {
			t.Fatalf("%s: candidates.csv %q", tt.name, rows)
		}
		var recommended []string
		for _, row := range rows[1:] {
			f := strings.Split(row, ",")
			if f[9] == "true" {
				recommended = append(recommended, name(f))
			}
			if f[9] == "true" && f[3] == "0" && f[11] != "true" {
				t.Errorf("%s: %s: recommended without a two-leader margin or fencing", tt.name, row)
			}
			if want := map[string]string{"15": "kubernetes", "137": "openshift"}[f[0]]; f[24] != want {
				t.Errorf("%s: %s: preset %q, want %q", tt.name, row, f[24], want)
			}
		}
		if len(recommended) != 1 || recommended[0] != tt.top {
			t.Errorf("%s: candidates.csv recommends %q, report.md %q", tt.name, recommended, tt.top)
		}
		if tt.name == "lines" && (!strings.Contains(md.String(), "| 12s (two leaders: no margin) | 10s | 2s | as deployed |") || !strings.Contains(md.String(), "| **15s (kubernetes) (current)** | 10s | 2s | as deployed |") ||
			!strings.Contains(md.String(), "| 45s | 40s | 2s | 2 nodes |")) {
			t.Errorf("%s: the table:\n%.2000s", tt.name, md.String())
		}
	}
}

// TestPartialBatchesNamed: with a batch that takes time, the summary
// names the current settings' lines of batches cut mid-run, and the cost
// section gives the same figure; over the review's own outage alone its
// table's row at the summary's rate is that figure too.
func TestPartialBatchesNamed(t *testing.T) {
	base := model.Default()
	base.PersistentTrigger, base.BatchLen, base.Rounds = true, 4, 36
	opt := study.DefaultReviewOptions(base)
	opt.Replicas, opt.CandidateLeases = 2, []int{2, 4}
	study.StudyOutage(&base, &opt, true, false, false)
	rv, err := study.NewReview(context.Background(), base, opt)
	if err != nil {
		t.Fatal(err)
	}
	cur := rv.Current()
	if !(cur.PartialLines > 0) || cur.PartialLines > cur.MissedLines {
		t.Fatalf("current settings: %.1f lines of partial batches of %.1f missed, want some, at most all", cur.PartialLines, cur.MissedLines)
	}
	ph := rv.Cost[0].Result.Phase
	if got := rv.EventsPerYear[0] * ph.Unwritten * float64(rv.LinesPerBatch); math.Abs(got-cur.PartialLines) > 1e-9 {
		t.Errorf("cost section's partial lines %.4f, summary's %.4f", got, cur.PartialLines)
	}
	var b bytes.Buffer
	for _, f := range reports.Files(rv) {
		if f.Name == "report.md" {
			if err := f.Write(&b); err != nil {
				t.Fatal(err)
			}
		}
	}
	md := b.String()
	figure := func(re string) float64 {
		m := regexp.MustCompile(re).FindStringSubmatch(md)
		if m == nil {
			t.Fatalf("report.md has no %s", re)
		}
		x, err := strconv.ParseFloat(strings.ReplaceAll(m[1], ",", ""), 64)
		if err != nil {
			t.Fatal(err)
		}
		return x
	}
	summary := figure(`Partial batches: of the current settings' [0-9,.]+ missed lines a year, ([0-9,.]+) are of batches cut mid-run`)
	section := figure(`of the lines never produced, ([0-9,.]+) are of [0-9.]+ batches a year cut mid-run`)
	if summary != section || math.Abs(summary-cur.PartialLines) > 0.05 {
		t.Errorf("partial lines a year: the summary says %v, the cost section %v, want both %.1f", summary, section, cur.PartialLines)
	}
	for _, want := range []string{"| partial batches (cut mid-run) |", "**as deployed**", "| partial batches/yr |"} {
		if !strings.Contains(md, want) {
			t.Errorf("report.md has no %q", want)
		}
	}
}

// rendered is the file of rv's report called name, as reports.Files
// writes it.
func rendered(t *testing.T, rv *study.Review, name string) *bytes.Buffer {
	t.Helper()
	var b bytes.Buffer
	for _, f := range reports.Files(rv) {
		if f.Name == name {
			if err := f.Write(&b); err != nil {
				t.Fatal(err)
			}
			return &b
		}
	}
	t.Fatalf("no %s among the report's files", name)
	return nil
}

// TestFirstScreen: report.md opens with the decision: a title naming the
// batch by its period and the lock, the verdict, current and recommended
// side by side (each yearly figure with the range of 95% of years, the
// safety figures, cost in its unit), what gets worse, how sure and where
// the loss comes from, all before the candidate table; never "an
// expectation, not a sample".
func TestFirstScreen(t *testing.T) {
	base := presetConfig(t, "kubernetes")
	base.Lease = 12 // no margin: another setting is recommended
	md := rendered(t, lockReview(t, base, 3, study.DefaultMaterial), "report.md").String()
	ps := strings.Split(md, "\n\n")
	if !strings.HasPrefix(ps[0], "# Leader election for the 5-minute batch on 3 nodes, client-go ") || !strings.HasPrefix(ps[1], "**Verdict: ") {
		t.Errorf("report.md opens %.300q", md)
	}
	screen, _, ok := strings.Cut(md, "## The candidates")
	if !ok {
		t.Fatalf("no candidate section:\n%.2000s", md)
	}
	for _, want := range []*regexp.Regexp{
		regexp.MustCompile(`\| \| current \([^)]+\) \| recommended \([^)]+\) \|`),
		regexp.MustCompile(`\| missed lines a year \| [0-9,.]+ \[[0-9,]+, [0-9,]+\] \| [0-9,.]+ \[[0-9,]+, [0-9,]+\] \|`),
		regexp.MustCompile(`\| handovers a year \| [0-9.]+ \[`),
		regexp.MustCompile(`\| takeover after a crash \| [0-9.]+-[0-9.]+ s \(median`),
		regexp.MustCompile(`\| two-leader margin \| `),
		regexp.MustCompile(`\| clock skew tolerated \| (none|[0-9.]+%) \| [0-9.]+% \|`),
		regexp.MustCompile(`\| cost a year \(price units\) \| [0-9,.]+ \[`),
		regexp.MustCompile(`\nWhat gets worse: `),
		regexp.MustCompile(`\nHow sure: .*95% of years`),
		regexp.MustCompile(`\nWhere the loss comes from `),
	} {
		if !want.MatchString(screen) {
			t.Errorf("the first screen has no %s:\n%s", want, screen)
		}
	}
	if strings.Contains(md, "not a sample") {
		t.Error("report.md still says its figures are not a sample")
	}
}

// TestLatenessReported: a pause that holds a running batch makes it
// late; the review's table gives each candidate's lateness a year beside
// its start delay, candidates.csv its last two columns, and the cost a
// year prices both at the delay's price.
func TestLatenessReported(t *testing.T) {
	base := model.Default()
	base.Lease, base.Period, base.BatchLen, base.Pause, base.Outage, base.Rounds = 20, 6, 4, true, 3, 36
	opt := study.DefaultReviewOptions(base)
	opt.Replicas, opt.CandidateLeases = 2, []int{20, 30}
	opt.Weights = cost.Weights{DelayedRound: 1}
	study.StudyOutage(&base, &opt, true, false, false)
	rv, err := study.NewReview(context.Background(), base, opt)
	if err != nil {
		t.Fatal(err)
	}
	md, csv := rendered(t, rv, "report.md").String(), rendered(t, rv, "candidates.csv").String()
	// The years drawn for the first screen's brackets price lateness too:
	// a year with outage events is late.
	for c, sp := range rv.Spreads {
		if !(sp.Cost[1] > 0) {
			t.Errorf("%+v: the years' cost a year runs %v, want lateness in it", c, sp.Cost)
		}
	}
	rows := strings.Split(strings.TrimSpace(csv), "\n")
	if !strings.HasSuffix(rows[0], ",start_delay_per_year,lateness_per_year,setting") || !strings.Contains(md, "| delayed rounds a year | late rounds a year |") {
		t.Fatalf("no lateness column: candidates.csv %q, report.md:\n%.1500s", rows[0], md)
	}
	for i, r := range rv.Recommendation {
		if !(r.LateRounds > 0) {
			t.Fatalf("lease %d: late rounds a year %v, want some", r.Lease, r.LateRounds)
		}
		f := strings.Split(rows[1+i], ",")
		if got, want := f[len(f)-2], fmt.Sprintf("%.6f", r.LateRounds); got != want {
			t.Errorf("lease %d: candidates.csv lateness %s, want %s", r.Lease, got, want)
		}
		if got, want := f[7], fmt.Sprintf("%.6f", r.DelayedRounds+r.LateRounds); got != want {
			t.Errorf("lease %d: cost a year %s, want delayed %v + late %v", r.Lease, got, r.DelayedRounds, r.LateRounds)
		}
		row := fmt.Sprintf("| %s | %s | %s | %s |", thousands(r.DoubleLines), thousands(r.DelayedRounds), thousands(r.LateRounds), fmt.Sprintf("%.2f", r.Handovers))
		if !strings.Contains(md, row) {
			t.Errorf("lease %d: report.md has no %q", r.Lease, row)
		}
	}
}

// thousands is x as report.md's table writes a yearly count: one
// decimal, with commas between groups of three digits.
func thousands(x float64) string {
	s := fmt.Sprintf("%.1f", x)
	whole, frac, _ := strings.Cut(s, ".")
	for i := len(whole) - 3; i > 0; i -= 3 {
		whole = whole[:i] + "," + whole[i:]
	}
	return whole + "." + frac
}
