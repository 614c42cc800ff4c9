package model

import (
	"math"
	"math/rand/v2"
)

// expZiggurat draws Exp(1) as math/rand/v2's ExpFloat64 does, number for
// number, but from the PCG itself: a rand.Rand reaches its source through
// the Source interface, a call the compiler cannot inline, and a Monte
// Carlo failure event is little more than one such draw. It is Marsaglia
// and Tsang's ziggurat ("The Ziggurat Method for Generating Random
// Variables", 2000) of 256 layers, its tables set up as their paper does,
// which yields ExpFloat64's tables bit for bit (TestExpZiggurat).
type expZiggurat struct {
	layers [256]zigguratLayer
	edge   [256]float32 // e^−x at layer i's outer edge x; 1 above the top layer
}

// zigguratLayer is one layer of the ziggurat: a draw's 32 bits j fall in
// the layer's rectangle, where the density is above it everywhere, when j
// < inside; x = j·width is then the draw.
type zigguratLayer struct {
	inside uint32
	width  float32
}

// zigguratTail is where the ziggurat's base layer gives way to the
// exponential's tail.
const zigguratTail = 7.69711747013104972

// newExpZiggurat sets up the ziggurat: 256 layers of equal area v, the
// base one a rectangle up to zigguratTail plus the tail beyond it; each
// layer's edge x solves v = x·(e^−x − e^−x_below) from the base up.
func newExpZiggurat() *expZiggurat {
	const (
		scale = 1 << 32
		v     = 3.949659822581572e-3 // each layer's area
	)
	z := new(expZiggurat)
	q := v / math.Exp(-zigguratTail)
	z.layers[0] = zigguratLayer{uint32(zigguratTail / q * scale), float32(q / scale)}
	z.layers[255].width = float32(zigguratTail / scale)
	z.edge[0], z.edge[255] = 1, float32(math.Exp(-zigguratTail))
	x, below := zigguratTail, zigguratTail
	for i := 254; i >= 1; i-- {
		x = -math.Log(v/x + math.Exp(-x))
		z.layers[i+1].inside = uint32(x / below * scale)
		z.layers[i].width = float32(x / scale)
		z.edge[i] = float32(math.Exp(-x))
		below = x
	}
	return z
}

// rectangle is the draw of the 64 bits u if they fall inside their
// layer's rectangle, as about 98 draws in 100 do; ok says whether they
// do. If not, outside finishes the draw. Split so that the usual draw
// inlines where it is made.
func (z *expZiggurat) rectangle(u uint64) (x float64, ok bool) {
	l := z.layers[uint8(u>>32)]
	return float64(uint32(u)) * float64(l.width), uint32(u) < l.inside
}

// outside goes on with a draw whose bits u, the first it took from src,
// fell outside their layer's rectangle, as ExpFloat64 does: into the tail
// from the base layer, under the density's curve, or a new draw.
func (z *expZiggurat) outside(src *rand.PCG, u uint64) float64 {
	for {
		j, i := uint32(u), uint8(u>>32)
		x := float64(j) * float64(z.layers[i].width)
		switch {
		case j < z.layers[i].inside:
			return x
		case i == 0:
			return zigguratTail - math.Log(uniform(src))
		case z.edge[i]+float32(uniform(src))*(z.edge[i-1]-z.edge[i]) < float32(math.Exp(-x)):
			return x
		}
		u = src.Uint64()
	}
}
