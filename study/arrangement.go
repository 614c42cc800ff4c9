// Package study computes what leasesim's reports show: the publication's
// measure table, the cost of outage events by both methods, and the
// capacity-planning review with its studies (lease sweep, heat map, zones,
// node count). It runs the model and the cost methods and keeps the
// numbers; package reports renders them, and computes nothing.
package study

import (
	"github.com/leasesim/leasesim/cost"
	"github.com/leasesim/leasesim/model"
)

// Arrangement is one of the three policies the publication compares:
// plain, fencing, and fencing with the persistent trigger.
type Arrangement struct {
	Name              string
	Fencing           bool
	PersistentTrigger bool
}

// Arrangements returns the publication's three arrangements, in its order.
func Arrangements() []Arrangement {
	return []Arrangement{{"plain", false, false}, {"fencing", true, false}, {"fencing+trigger", true, true}}
}

// Apply returns c with the arrangement's toggles. Without the persistent
// trigger there is no queue for a slot to wait in behind a running run,
// so an overlap policy that buffers skips such a slot instead
// (Review.Warnings says so).
func (a Arrangement) Apply(c model.Config) model.Config {
	c.Fencing, c.PersistentTrigger = a.Fencing, a.PersistentTrigger
	if !c.PersistentTrigger && c.Buffers() {
		c.Overlap = model.OverlapSkip
	}
	return c
}

// LeaseBlock returns the configurations behind the measure table's lease
// block: base, plain, with each of the leases and outages of
// BlockLeases(base), lease outermost.
func LeaseBlock(base model.Config) []model.Config {
	var cs []model.Config
	leases, outages := BlockLeases(base)
	for _, lease := range leases {
		for _, outage := range outages {
			c := Arrangements()[0].Apply(base)
			c.Lease, c.Outage = lease, outage
			cs = append(cs, c)
		}
	}
	return cs
}

// Measure is the publication's measure table for a base configuration.
type Measure struct {
	Base         model.Config
	Arrangements []model.Stats // as Arrangements()
	Leases       []int         // the lease block's leases …
	Outages      []int         // … against these outages (BlockLeases)
	Block        []model.Stats // the lease block's runs, as LeaseBlock(Base)

	// Incident is the arrangements' outage event if it is not Base's
	// group outage, and IncidentFile names it.
	Incident     model.Windows
	IncidentFile string
}

// NewMeasure runs base's arrangements and lease block, the followers'
// jitter (if any) drawn from seed. The arrangements meet incident's
// failures if it is set (base's outage fields their span), else base's
// group outage; the lease block, which varies the outage, the group
// outage.
func NewMeasure(base model.Config, seed uint64, incident model.Windows) (Measure, error) {
	m := Measure{Base: base, Incident: incident}
	m.Leases, m.Outages = BlockLeases(base)
	r := model.Runner{JitterSeed: model.JitterSeed(seed)}
	for _, a := range Arrangements() {
		st, err := cost.RunEvent(&r, a.Apply(base), incident)
		if err != nil {
			return Measure{}, err
		}
		m.Arrangements = append(m.Arrangements, st)
	}
	for _, c := range LeaseBlock(base) {
		st, err := r.Run(c)
		if err != nil {
			return Measure{}, err
		}
		m.Block = append(m.Block, st)
	}
	return m, nil
}
