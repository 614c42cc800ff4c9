package settings

// Takeover and Settled are takeover and settled, for the tests of its work.
var Takeover = takeover

const Settled = settled

// LockFlagsOf and RoundOptionsOf are lockFlagsOf and roundOptions, for
// a test that adds a row of its own.
var (
	LockFlagsOf    = lockFlagsOf
	RoundOptionsOf = roundOptions
)
