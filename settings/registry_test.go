package settings_test

import (
	"slices"
	"testing"
	"time"

	"github.com/leasesim/leasesim/model"
	"github.com/leasesim/leasesim/settings"
)

// TestLockRowsCoverTheModel: every protocol of the round model but
// client-go's is some lock row's, and each row's lock runs as one of its
// protocols, read back (FromConfig) as a lock of the same protocol; so a
// protocol model adds without a row, or a row whose protocol the model
// lacks, fails here.
func TestLockRowsCoverTheModel(t *testing.T) {
	for p := range model.LockProtocol(model.NumProtocols) {
		_, ok := settings.LockRowFor(p)
		if ok == (p == model.ProtocolClientGo) {
			t.Errorf("protocol %s: a lock row %t; want one for every protocol but client-go's", model.Protocol.AppendValue(nil, int(p)), ok)
		}
	}
	for _, row := range settings.LockRows() {
		r, ok := settings.RoundLockOf(row.Defaults)
		if !ok || !slices.Contains(row.Protocols, r.Protocol) {
			t.Errorf("%s: RoundLockOf its defaults gives protocol %d, %t; want one of %v", row.Preset, r.Protocol, ok, row.Protocols)
			continue
		}
		if p, err := settings.PresetByName(row.Preset); err != nil || p.Lock != row.Defaults {
			t.Errorf("%s: preset %+v, %v; want its defaults", row.Preset, p, err)
		}
		tick := r.Tick()
		rounds := func(d time.Duration) int { return int(d / tick) }
		for _, p := range row.Protocols {
			var c model.Config
			c.Protocol, c.Lease, c.RetryPeriod, c.LockDelay, c.AcquireWait, c.Nodes = p, rounds(r.Lease), rounds(r.RetryPeriod), rounds(r.LockDelay), rounds(r.AcquireWait), 3
			back := row.FromConfig(c, func(n int) time.Duration { return time.Duration(n) * tick }, 3)
			if rb, ok := settings.RoundLockOf(back); !ok || rb.Protocol != p || rb.Lease != r.Lease {
				t.Errorf("%s under %d: read back as %+v (%+v, %t); want protocol %d, lease %s", row.Preset, p, back, rb, ok, p, r.Lease)
			}
		}
		if got := row.WithNodes(row.Defaults, 7); got.Title() == row.Defaults.Title() {
			t.Errorf("%s: WithNodes 7 leaves the title %q", row.Preset, got.Title())
		}
	}
}

// TestLockFlagsHaveHelp: every lock option is a flag with a type, a Set
// and help on both kinds of command (a flag of the model's own takes the
// settings help of client-go's, or its row's), once each.
func TestLockFlagsHaveHelp(t *testing.T) {
	seen := map[string]bool{}
	for _, f := range settings.LockFlags() {
		if seen[f.Name] {
			t.Errorf("--%s listed twice", f.Name)
		}
		seen[f.Name] = true
		if f.Type == "" || f.Set == nil || (f.Usage == "" && f.Refusal == "") || (f.SettingsUsage == "" && !slices.Contains(settings.ClientGoOptions, f.Name)) {
			t.Errorf("--%s: type %q, usage %q, settings usage %q, refusal %q: want a type, a Set and help", f.Name, f.Type, f.Usage, f.SettingsUsage, f.Refusal)
		}
	}
}

// fakeLock is a lock of a test's own, for a row added to the table.
type fakeLock struct{ settings.Etcd }

// TestAddedRowIsListed: a row added to the table brings its options to
// the lock flags (a shared flag once, with the first row's help) and to
// the round model's options, after the others, in its order.
func TestAddedRowIsListed(t *testing.T) {
	fake := settings.LockRow{Preset: "fake", Defaults: fakeLock{settings.EtcdDefaults()}, Flags: []settings.LockFlag{
		{Name: "session-ttl", Type: "duration"},
		{Name: "fake-period", Type: "duration", Usage: "with --preset fake: its period", SettingsUsage: "fake's period"},
	}}
	rows := append(settings.LockRows(), fake)
	flags := settings.LockFlagsOf(rows)
	last := flags[len(flags)-1]
	if last.Name != "fake-period" || last.Usage != "with --preset fake: its period" {
		t.Errorf("last lock flag %+v; want fake-period with its help", last)
	}
	if n := len(flags) - len(settings.LockFlags()); n != 1 {
		t.Errorf("the fake row adds %d flags; want 1 (session-ttl is etcd's already)", n)
	}
	opts := settings.RoundOptionsOf(rows)
	if want := append(slices.Clone(settings.RoundOptions), "fake-period"); !slices.Equal(opts, want) {
		t.Errorf("round options %v; want %v", opts, want)
	}
}
