package montecarlo

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/leasesim/leasesim/internal/atomicfile"
	"github.com/leasesim/leasesim/model"
	"github.com/leasesim/leasesim/model/parse"
	"github.com/leasesim/leasesim/sweep"
)

// A Monte Carlo shard (montecarlo --shard K/N) holds, for every
// configuration, the tallies of its share of the replicas: replicas
// K·R/N … (K+1)·R/N − 1 of R. Tallies are exact integers, so
// MergeMonteCarlo can add the shards' up and write the unsharded study's
// CSV byte for byte. Its first line names it and its shard, its second is
// the study (monteCarloSpec, JSON), then one line per configuration: its
// row number, then N, NonZero, Sum and the two words of SumSq of every
// statistic's tally, of the lost-batches tally and of the episodes'
// tallies (Summary.tallies), then the two words of each of the episodes'
// cross sums (Summary.crosses).
const monteCarloShardMagic = "leasesim montecarlo shard"

// maxLine bounds the length of a line a merge reads, as a sweep's merge
// does: a shard's lines are a few kilobytes at most, so a longer one is
// not a shard's, and reading it whole could fill memory.
const maxLine = 64 << 10

// monteCarloSpec is what a shard says of its study: everything the
// unsharded CSV is computed from but the replicas' results.
type monteCarloSpec struct {
	Grid          map[string]string `json:"grid"` // each parameter's list, in rounds
	TickMS        int64             `json:"tick_ms,omitempty"`
	JitterSeed    uint64            `json:"jitter_seed,omitempty"`
	Up            string            `json:"up"`
	Down          string            `json:"down"`
	UpSamples     []int             `json:"up_samples,omitempty"` // an empirical distribution's lengths
	DownSamples   []int             `json:"down_samples,omitempty"`
	Also          []processSpec     `json:"also,omitempty"`
	Replicas      int               `json:"replicas"`
	Seed          uint64            `json:"seed"`
	RoundsPerYear float64           `json:"rounds_per_year,omitempty"`
	LinesPerBatch float64           `json:"lines_per_batch"`
	PhaseAverage  bool              `json:"phase_average,omitempty"`
}

// processSpec is a further failure process of a study (MonteCarlo.Also).
type processSpec struct {
	Failure     string `json:"failure"`
	Up          string `json:"up"`
	Down        string `json:"down"`
	UpSamples   []int  `json:"up_samples,omitempty"`
	DownSamples []int  `json:"down_samples,omitempty"`
	Zone        []int  `json:"zone,omitempty"`
}

func (mc *MonteCarlo) spec() monteCarloSpec {
	s := monteCarloSpec{Grid: map[string]string{}, TickMS: time.Duration(mc.Grid.Tick).Milliseconds(), JitterSeed: mc.Grid.Seed,
		Up: mc.Up.String(), Down: mc.Down.String(), UpSamples: mc.Up.Samples, DownSamples: mc.Down.Samples, Replicas: mc.Replicas, Seed: mc.Seed,
		RoundsPerYear: mc.RoundsPerYear, LinesPerBatch: mc.LinesPerBatch, PhaseAverage: mc.PhaseAverage}
	for p, vals := range mc.Grid.Values {
		s.Grid[model.Param(p).Name()] = vals.Format(model.Param(p))
	}
	for _, p := range mc.Also {
		s.Also = append(s.Also, processSpec{p.Failure.String(), p.Up.String(), p.Down.String(), p.Up.Samples, p.Down.Samples, p.Zone})
	}
	return s
}

// studyOf rebuilds the study a spec describes.
func (s monteCarloSpec) studyOf() (*MonteCarlo, error) {
	mc := &MonteCarlo{Replicas: s.Replicas, Seed: s.Seed, RoundsPerYear: s.RoundsPerYear, LinesPerBatch: s.LinesPerBatch, PhaseAverage: s.PhaseAverage}
	var err error
	lengths := func(text string, samples []int) (model.Lengths, error) {
		if source, ok := strings.CutPrefix(text, "empirical:"); ok {
			return model.EmpiricalLengths(source, samples)
		}
		return parse.Lengths(0, text)
	}
	if mc.Up, err = lengths(s.Up, s.UpSamples); err != nil {
		return nil, err
	}
	if mc.Down, err = lengths(s.Down, s.DownSamples); err != nil {
		return nil, err
	}
	for _, p := range s.Also {
		proc := model.Process{Zone: p.Zone}
		if proc.Failure, err = parse.Failure(p.Failure); err != nil {
			return nil, err
		}
		if proc.Up, err = lengths(p.Up, p.UpSamples); err != nil {
			return nil, err
		}
		if proc.Down, err = lengths(p.Down, p.DownSamples); err != nil {
			return nil, err
		}
		mc.Also = append(mc.Also, proc)
	}
	mc.Grid.Tick, mc.Grid.Seed = model.Tick(time.Duration(s.TickMS)*time.Millisecond), s.JitterSeed
	for p := model.Param(0); int(p) < model.NumParams; p++ {
		text, ok := s.Grid[p.Name()]
		if !ok {
			return nil, fmt.Errorf("the study names no list of %s", p.Name())
		}
		if mc.Grid.Values[p], err = sweep.ParseValues(0, p, text); err != nil {
			return nil, fmt.Errorf("%s: %v", p.Name(), err)
		}
	}
	if mc.Replicas < 1 {
		return nil, fmt.Errorf("%d replicas", mc.Replicas)
	}
	return mc, nil
}

// RunShard runs shard k of n of the study, replicas k·R/n … (k+1)·R/n − 1
// of every configuration, and writes their tallies to w.
func (mc *MonteCarlo) RunShard(ctx context.Context, workers, k, n int, w io.Writer, progress func(replicas int)) error {
	spec, err := json.Marshal(mc.spec())
	if err != nil {
		return err
	}
	if _, err := fmt.Fprintf(w, "%s %d/%d\n%s\n", monteCarloShardMagic, k, n, spec); err != nil {
		return err
	}
	from, to := k*mc.Replicas/n, (k+1)*mc.Replicas/n
	row, b := 0, []byte(nil)
	return mc.run(ctx, workers, from, to, func(s *Summary) error {
		b = strconv.AppendInt(b[:0], int64(row), 10)
		for _, t := range s.tallies() {
			b = fmt.Appendf(b, ",%d,%d,%d,%d,%d", t.N, t.NonZero, t.Sum, t.SumSq[0], t.SumSq[1])
		}
		for _, c := range s.crosses() {
			b = fmt.Appendf(b, ",%d,%d", c[0], c[1])
		}
		b = append(b, '\n')
		row++
		_, err := w.Write(b)
		return err
	}, progress)
}

// IsMonteCarloShard reports whether the file r reads starts as a Monte
// Carlo shard does, for merge to tell it from a sweep's. It only peeks:
// what it looks at is read again.
func IsMonteCarloShard(r *bufio.Reader) bool {
	head, _ := r.Peek(len(monteCarloShardMagic))
	return string(head) == monteCarloShardMagic
}

// MergeMonteCarlo writes to w the CSV of the unsharded study from the
// files of its shards, given in shard order: every shard once, of one
// study, each with every configuration. It reads the shards once, side by
// side, a configuration at a time, and holds the output
// (atomicfile.Spool) until all of them check, so that it writes nothing
// unless they do; if not, the error is a *sweep.ShardError.
func MergeMonteCarlo(w io.Writer, shards *sweep.Shards) error {
	return atomicfile.Spool(w, func(out *bufio.Writer) error {
		mc, err := checkMonteCarloHeads(shards)
		if err != nil {
			return &sweep.ShardError{Err: err}
		}
		if _, err := out.Write(mc.AppendHeader(nil)); err != nil {
			return err
		}
		return mergeTallies(out, shards, mc)
	})
}

// checkMonteCarloHeads reads the first two lines of every shard, its K/N
// and its study, and returns the study: every shard's, each once, in
// order.
func checkMonteCarloHeads(shards *sweep.Shards) (*MonteCarlo, error) {
	var mc *MonteCarlo
	var spec []byte
	for i := range shards.Len() {
		name := shards.Name(i)
		k, n, line, err := readShardHead(shards, i)
		switch {
		case err != nil:
			return nil, err
		case n != shards.Len():
			return nil, fmt.Errorf("%s: line 1: shard %d/%d, but %d files given: want the study's %d shards, 0/%d … %d/%d, each once, in order", name, k, n, shards.Len(), n, n, n-1, n)
		case k != i:
			return nil, fmt.Errorf("%s: line 1: shard %d/%d given as file %d of %d: want shards 0/%d … %d/%d, each once, in order", name, k, n, i+1, shards.Len(), n, n-1, n)
		case i == 0:
			var s monteCarloSpec
			if err := json.Unmarshal(line, &s); err != nil {
				return nil, fmt.Errorf("%s: line 2: the study: %v", name, err)
			}
			if mc, err = s.studyOf(); err != nil {
				return nil, fmt.Errorf("%s: line 2: the study: %v", name, err)
			}
			spec = line
		case !bytes.Equal(line, spec):
			return nil, fmt.Errorf("%s: line 2: the study differs from %s's: the files are not shards of one study", name, shards.Name(0))
		}
	}
	return mc, nil
}

// readShardHead reads the first two lines of shard i, its K/N and its
// study.
func readShardHead(shards *sweep.Shards, i int) (k, n int, study []byte, err error) {
	name := shards.Name(i)
	r, err := shards.Reader(i)
	if err != nil {
		return 0, 0, nil, err
	}
	head, err := readLine(r, name, 1)
	if err != nil {
		return 0, 0, nil, err
	}
	if _, err := fmt.Sscanf(string(head), monteCarloShardMagic+" %d/%d", &k, &n); err != nil {
		return 0, 0, nil, fmt.Errorf("%s: line 1: %.60q is not a Monte Carlo shard's first line (%s K/N)", name, head, monteCarloShardMagic)
	}
	if study, err = readLine(r, name, 2); err != nil {
		return 0, 0, nil, err
	}
	return k, n, bytes.Clone(study), nil
}

// mergeTallies writes to out the rows of study mc from the tallies of
// its shards, whose first two lines checkMonteCarloHeads read, reading
// them side by side from their third lines on and checking every line.
// An error of the shards' is a *sweep.ShardError; one of out's is
// returned as it is.
func mergeTallies(out *bufio.Writer, shards *sweep.Shards, mc *MonteCarlo) error {
	size, err := mc.Grid.Size()
	if err != nil {
		return &sweep.ShardError{Err: err}
	}
	readers := make([]*bufio.Reader, shards.Len())
	for i := range readers {
		readers[i], _ = shards.Reader(i) // opened by checkMonteCarloHeads
	}
	var b []byte
	row := 0 // the rows of configurations that go together, as run wrote them
	for i := range size {
		s := Summary{Config: mc.Grid.Config(i)}
		if s.Config.Validate() != nil {
			continue
		}
		tallies, crosses := s.tallies(), s.crosses()
		for i, r := range readers {
			v, err := readCounts(r, shards.Name(i), row, tallyFields*len(tallies)+2*len(crosses))
			if err != nil {
				return &sweep.ShardError{Err: err}
			}
			for k, t := range tallies {
				f := v[tallyFields*k:]
				t.Merge(Tally{N: f[0], NonZero: f[1], Sum: f[2], SumSq: [2]uint64{f[3], f[4]}})
			}
			for k, c := range crosses {
				f := v[tallyFields*len(tallies)+2*k:]
				*c = add128(*c, f[0], f[1])
			}
		}
		if s.Tallies[0].N != uint64(mc.Replicas) {
			return &sweep.ShardError{Err: fmt.Errorf("row %d: the shards hold %d replicas of %d", row, s.Tallies[0].N, mc.Replicas)}
		}
		s.Replicas = mc.Replicas
		mc.Finish(&s)
		b = mc.AppendRow(b[:0], &s)
		if _, err := out.Write(b); err != nil {
			return err
		}
		row++
	}
	for i, r := range readers {
		if _, err := r.Peek(1); err != io.EOF {
			return &sweep.ShardError{Err: fmt.Errorf("%s: more lines than the study's %d configurations", shards.Name(i), row)}
		}
	}
	return nil
}

// readLine reads line number line of a file (0: not counted), without its
// newline.
func readLine(r *bufio.Reader, name string, line int) ([]byte, error) {
	text, err := r.ReadSlice('\n')
	switch {
	case errors.Is(err, bufio.ErrBufferFull):
		return nil, fmt.Errorf("%s: line %d is longer than %d bytes: not a Monte Carlo shard", name, line, maxLine)
	case err == io.EOF:
		return nil, fmt.Errorf("%s: line %d is missing or cut short: the shard is incomplete", name, line)
	case err != nil:
		return nil, err
	}
	return text[:len(text)-1], nil
}

// tallyFields is how many numbers a shard writes of each tally: N,
// NonZero, Sum and the two words of SumSq.
const tallyFields = 5

// oldFields is how many fields a line of an older leasesim's shard has:
// the row, then the statistics' and the lost parts' tallies, without the
// episodes'.
const oldFields = 1 + tallyFields*(model.NumStats+1)

// readCounts reads the line of configuration row from a shard and
// returns its n counts after the row number: the tallies' fields, then
// the episodes' cross sums (Summary.tallies, Summary.crosses).
func readCounts(r *bufio.Reader, name string, row, n int) ([]uint64, error) {
	text, err := readLine(r, name, row+3)
	if err != nil {
		return nil, err
	}
	fields := strings.Split(string(text), ",")
	switch {
	case len(fields) == oldFields:
		return nil, fmt.Errorf("%s: line %d: %d fields, an older leasesim's shard, without the episodes' tallies that the intervals of leaderless and two-leader rounds need: run its shards again with this leasesim", name, row+3, len(fields))
	case len(fields) != 1+n:
		return nil, fmt.Errorf("%s: line %d: %d fields, want %d (the row, then N, nonzero, sum and the sum of squares' two words of each tally, then the episodes' cross sums): the line is cut short, glued to another, or of an older leasesim's shard", name, row+3, len(fields), 1+n)
	}
	if got, err := strconv.Atoi(fields[0]); err != nil || got != row {
		return nil, fmt.Errorf("%s: line %d: row %.20q where row %d belongs: a line is missing or out of order", name, row+3, fields[0], row)
	}
	v := make([]uint64, n)
	for i := range v {
		if v[i], err = strconv.ParseUint(fields[i+1], 10, 64); err != nil {
			return nil, fmt.Errorf("%s: line %d: field %d: %.20q is not a count", name, row+3, i+2, fields[i+1])
		}
	}
	return v, nil
}
