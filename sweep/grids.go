package sweep

import (
	"bytes"
	"context"
	"io"
)

// WriteGrids writes the rows of grids in turn as one CSV (Write), under
// the first grid's header alone: a sweep of several presets' grids, which
// share their columns.
func WriteGrids(ctx context.Context, w io.Writer, grids []Grid, opt Options) error {
	for i := range grids {
		to := w
		if i > 0 {
			to = &afterHeader{w: w}
		}
		if err := Write(ctx, to, &grids[i], opt); err != nil {
			return err
		}
	}
	return nil
}

// afterHeader writes what is written to it but its first line.
type afterHeader struct {
	w    io.Writer
	past bool
}

func (a *afterHeader) Write(p []byte) (int, error) {
	n := len(p)
	if !a.past {
		i := bytes.IndexByte(p, '\n')
		if i < 0 {
			return n, nil
		}
		p, a.past = p[i+1:], true
	}
	_, err := a.w.Write(p)
	return n, err
}
