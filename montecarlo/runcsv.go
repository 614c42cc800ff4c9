package montecarlo

import (
	"context"
	"io"
)

// RunCSV is Run, each configuration's summary also written to csv, if
// not nil, as a row of the study's CSV (AppendRow) after its header
// (AppendHeader), before emit has it: a study's table and CSV stream a
// configuration at a time, so that memory stays flat however many there
// are.
func (mc *MonteCarlo) RunCSV(ctx context.Context, workers int, csv io.Writer, emit func(*Summary) error, progress func(replicas int)) error {
	if csv != nil {
		if _, err := csv.Write(mc.AppendHeader(nil)); err != nil {
			return err
		}
	}
	var row []byte
	return mc.Run(ctx, workers, func(s *Summary) error {
		if csv != nil {
			row = mc.AppendRow(row[:0], s)
			if _, err := csv.Write(row); err != nil {
				return err
			}
		}
		return emit(s)
	}, progress)
}
