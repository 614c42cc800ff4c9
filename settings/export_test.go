package settings

// Takeover and Settled are takeover and settled, for the tests of its work.
var Takeover = takeover

const Settled = settled
