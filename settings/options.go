package settings

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/leasesim/leasesim/model"
)

// An Option is a time a lock's library lets its user set, by the key a
// review file and a candidate list give it (its flag has dashes for the
// underscores, but DynamoDB's lease_duration, which is --lease): what a
// review's candidates vary and are named by. Each lock lists its own
// (Lock.Options), with its value; every consumer (the review's grid,
// the candidates' names, a refused candidate's nearest settings) reads
// that list.
type Option struct {
	Key     string        // session_ttl, lock_delay, session_timeout, lease_duration, heartbeat_period
	Library string        // what the library calls it: concurrency.WithTTL
	Value   time.Duration // the lock's
	Default time.Duration // the library's
	// Step is the least change the library takes: a value is a whole
	// number of it (etcd's whole seconds, Consul's 5 s lock-delay tries).
	Step time.Duration
	// Tries is the values a review's grid tries for this lock (each made
	// one the lock takes, NearestValue), nil for an option the grid keeps:
	// the server's tickTime, which is not the client's to set, and the
	// waiters' refresh period and additional wait, which are not the
	// holder's lease.
	Tries []time.Duration
	// Names says that the option names the lock even where Tries is nil
	// (client-go's, whose grid its candidate lists give).
	Names bool
	with  func(time.Duration) Settable
}

// With is the lock the option was read from, with the option set to v
// and every other as it was: a Lock, for a Lock's option.
func (o Option) With(v time.Duration) Settable { return o.with(v) }

// lockWith is a Lock's option set to v.
func (o Option) lockWith(v time.Duration) Lock { return o.with(v).(Lock) }

// String is the option as a candidate list writes it: "session_ttl=60s".
func (o Option) String() string { return o.Key + "=" + o.Text() }

// Text is the option's value as a candidate list writes it, in seconds:
// "60s", "7.5s".
func (o Option) Text() string { return dur(o.Value) }

// Varied reports whether a review's grid varies the option.
func (o Option) Varied() bool { return o.Tries != nil }

// scaled is the values a grid tries for a lock's lease-like option of
// value v: a quarter, a half, three quarters, once, one and a half, two,
// three and four times v. Round shares of it keep the renewals they set
// (etcd's TTL/3, Consul's TTL/2) on short cycles with the batch's period,
// which the phase method's runs repeat over.
func scaled(v time.Duration) []time.Duration {
	var ts []time.Duration
	for _, q := range []time.Duration{1, 2, 3, 4, 6, 8, 12, 16} {
		ts = append(ts, v*q/4)
	}
	return ts
}

// around is the values a grid tries for a lock's renewal-like option of
// value v: half, itself and twice.
func around(v time.Duration) []time.Duration { return []time.Duration{v / 2, v, 2 * v} }

// Options is etcd's session TTL.
func (e Etcd) Options() []Option {
	return []Option{{Key: "session_ttl", Library: "concurrency.WithTTL", Value: e.SessionTTL, Default: EtcdDefaults().SessionTTL, Step: time.Second, Tries: scaled(e.SessionTTL),
		with: func(v time.Duration) Settable { l := e; l.SessionTTL = v; return l }}}
}

// Options is Consul's session TTL and lock-delay.
func (c Consul) Options() []Option {
	return []Option{
		{Key: "session_ttl", Library: "LockOptions.SessionTTL", Value: c.SessionTTL, Default: ConsulDefaults().SessionTTL, Step: time.Second, Tries: scaled(c.SessionTTL),
			with: func(v time.Duration) Settable { l := c; l.SessionTTL = v; return l }},
		{Key: "lock_delay", Library: "LockOptions.LockDelay", Value: c.LockDelay, Default: ConsulDefaults().LockDelay, Step: consulLockRetry,
			Tries: []time.Duration{0, c.LockDelay, 2 * c.LockDelay, ConsulDefaults().LockDelay},
			with:  func(v time.Duration) Settable { c.LockDelay = v; return c }},
	}
}

// Options is Curator's session timeout, which the grid varies within the
// 2 to 20 ticks the server negotiates it to (so that each is granted as
// asked), and the server's tickTime, which it keeps.
func (c Curator) Options() []Option {
	var tries []time.Duration
	for _, v := range scaled(c.Negotiated()) {
		tries = append(tries, min(max(v, 2*c.TickTime), 20*c.TickTime))
	}
	return []Option{
		{Key: "session_timeout", Library: "sessionTimeoutMs", Value: c.SessionTimeout, Default: CuratorDefaults().SessionTimeout, Step: time.Millisecond, Tries: tries,
			with: func(v time.Duration) Settable { l := c; l.SessionTimeout = v; return l }},
		{Key: "tick_time", Library: "the server's tickTime", Value: c.TickTime, Default: CuratorDefaults().TickTime, Step: time.Millisecond,
			with: func(v time.Duration) Settable { l := c; l.TickTime = v; return l }},
	}
}

// Options is the DynamoDB lock client's lease duration and heartbeat
// period, which the grid varies, and acquireLock's refresh period and
// additional time to wait, which it keeps.
func (d DynamoDB) Options() []Option {
	return []Option{
		{Key: "lease_duration", Library: "leaseDuration", Value: d.LeaseDuration, Default: DynamoDBDefaults().LeaseDuration, Step: time.Millisecond, Tries: scaled(d.LeaseDuration),
			with: func(v time.Duration) Settable { l := d; l.LeaseDuration = v; return l }},
		{Key: "heartbeat_period", Library: "heartbeatPeriod", Value: d.HeartbeatPeriod, Default: DynamoDBDefaults().HeartbeatPeriod, Step: time.Millisecond, Tries: around(d.HeartbeatPeriod),
			with: func(v time.Duration) Settable { l := d; l.HeartbeatPeriod = v; return l }},
		{Key: "refresh_period", Library: "refreshPeriod", Value: d.RefreshPeriod, Default: DynamoDBDefaults().RefreshPeriod, Step: time.Millisecond,
			with: func(v time.Duration) Settable { l := d; l.RefreshPeriod = v; return l }},
		{Key: "additional_time_to_wait", Library: "additionalTimeToWaitForLock", Value: d.AdditionalWait, Default: DynamoDBDefaults().AdditionalWait, Step: time.Millisecond,
			with: func(v time.Duration) Settable { l := d; l.AdditionalWait = v; return l }},
	}
}

// Options is client-go's lease duration, renew deadline and retry
// period, which name its settings; a review's grid varies them as its
// candidate lists say (leases, renew deadlines, retry periods), so they
// have no Tries but name it all the same (Setting).
func (s Settings) Options() []Option {
	d := Settings{LeaseDuration: 15 * time.Second, RenewDeadline: 10 * time.Second, RetryPeriod: 2 * time.Second} // as Kubernetes sets them
	return []Option{
		{Key: "lease", Library: "LeaseDuration", Value: s.LeaseDuration, Default: d.LeaseDuration, Step: time.Millisecond, Names: true,
			with: func(v time.Duration) Settable { l := s; l.LeaseDuration = v; return l }},
		{Key: "renew_deadline", Library: "RenewDeadline", Value: s.RenewDeadline, Default: d.RenewDeadline, Step: time.Millisecond, Names: true,
			with: func(v time.Duration) Settable { l := s; l.RenewDeadline = v; return l }},
		{Key: "retry_period", Library: "RetryPeriod", Value: s.RetryPeriod, Default: d.RetryPeriod, Step: time.Millisecond, Names: true,
			with: func(v time.Duration) Settable { l := s; l.RetryPeriod = v; return l }},
	}
}

// Settable is a lock whose options name it: every Lock, and client-go's
// Settings.
type Settable interface {
	Options() []Option
}

// Setting names a lock by the options a review's grid varies, and those
// it keeps where they are not the library's default, as a candidate list
// writes them: "session_ttl=60s", "session_ttl=15s lock_delay=15s",
// "lease_duration=30s heartbeat_period=10s additional_time_to_wait=3s".
func Setting(lock Settable) string {
	var kv []string
	for _, o := range lock.Options() {
		if o.Varied() || o.Names || o.Value != o.Default {
			kv = append(kv, o.String())
		}
	}
	return strings.Join(kv, " ")
}

// Takes is why the round model cannot run lock at a round of tick, or
// nil: the library refuses it (Validate), or a time of its protocol
// (RoundLockOf) is not a whole number of rounds (DynamoDB's round must be
// its refresh period).
func Takes(lock Lock, tick time.Duration) error {
	if err := lock.Validate(); err != nil {
		return err
	}
	r, ok := RoundLockOf(lock)
	if !ok {
		return fmt.Errorf("the round model does not run %s", lock.Title())
	}
	return r.Holds(tick)
}

// Holds is why a round of tick cannot hold r's times, or nil.
func (r RoundLock) Holds(tick time.Duration) error {
	if r.Protocol == model.ProtocolDynamoDB && r.Refresh != tick {
		return fmt.Errorf("its waiters read the record every round, so the round %s must be its refresh period %s", dur(tick), dur(r.Refresh))
	}
	for _, t := range []struct {
		what string
		d    time.Duration
	}{{"its lease", r.Lease}, {"its renewal every", r.RetryPeriod}, {"its lock-delay as met", r.LockDelay}, {"its acquire wait", r.AcquireWait}, {"its disconnect delay", r.DisconnectDelay}} {
		if t.d%tick != 0 {
			return fmt.Errorf("%s %s is not a whole number of the round %s", t.what, dur(t.d), dur(tick))
		}
	}
	return nil
}

// maxSearch bounds the steps NearestValue looks each way.
const maxSearch = 1000

// NearestValue is the value of lock's option i nearest to v, below it and
// above it, for which the round model runs the lock at a round of tick
// (Takes), the other options as lock has them; ok says whether it found
// one within a thousand steps either way. It looks in steps of the
// option's Step, or of the tick where that is longer, from v rounded to
// them.
func NearestValue(lock Lock, i int, v, tick time.Duration) (below, above time.Duration, okBelow, okAbove bool) {
	o := lock.Options()[i]
	step := max(o.Step, tick)
	if o.Step > 0 && tick%o.Step != 0 {
		step = o.Step
	}
	start := v / step * step
	for k := range maxSearch {
		if d := start - time.Duration(k)*step; !okBelow && d >= 0 && d <= v && Takes(o.lockWith(d), tick) == nil {
			below, okBelow = d, true
		}
		if d := start + time.Duration(k)*step; !okAbove && d >= v && Takes(o.lockWith(d), tick) == nil {
			above, okAbove = d, true
		}
		if okBelow && okAbove {
			break
		}
	}
	return below, above, okBelow, okAbove
}

// Grid is the locks a review tries around lock at a round of tick: every
// combination of its options' Tries (an option without them kept), each
// value the nearest the round model runs with the lock's other options
// (NearestValue, the nearer of below and above, below on a tie), those
// the library takes (Takes), each once, in the order of the options'
// values.
func Grid(lock Lock, tick time.Duration) []Lock {
	opts := lock.Options()
	values := make([][]time.Duration, len(opts))
	for i, o := range opts {
		if !o.Varied() {
			values[i] = []time.Duration{o.Value}
			continue
		}
		for _, v := range o.Tries {
			below, above, okB, okA := NearestValue(lock, i, v, tick)
			switch {
			case okB && (!okA || v-below <= above-v):
				values[i] = append(values[i], below)
			case okA:
				values[i] = append(values[i], above)
			}
		}
		slices.Sort(values[i])
		values[i] = slices.Compact(values[i])
	}
	var locks []Lock
	var walk func(i int, l Lock)
	walk = func(i int, l Lock) {
		if i == len(opts) {
			if Takes(l, tick) == nil && !slices.Contains(locks, l) {
				locks = append(locks, l)
			}
			return
		}
		for _, v := range values[i] {
			walk(i+1, l.Options()[i].lockWith(v))
		}
	}
	walk(0, lock)
	return locks
}

// Nearest is what to take instead of a lock the round model cannot run at
// a round of tick: for each option the grid varies, the nearest values
// below and above that it can (NearestValue), the others as lock has
// them; where no one option alone will do (two refused), each option's
// nearest with the others at the library's defaults, together. Nearest
// first, by the shares of the options' values they change.
func Nearest(lock Lock, tick time.Duration) []Lock {
	opts := lock.Options()
	var ns []near
	for i, o := range opts {
		if !o.Varied() {
			continue
		}
		below, above, okB, okA := NearestValue(lock, i, o.Value, tick)
		if okB && below != o.Value {
			ns = append(ns, near{o.lockWith(below), o.share(below)})
		}
		if okA && above != o.Value {
			ns = append(ns, near{o.lockWith(above), o.share(above)})
		}
	}
	if len(ns) == 0 {
		ns = together(lock, tick)
	}
	slices.SortStableFunc(ns, func(a, b near) int { return cmp.Compare(a.dist, b.dist) })
	var ls []Lock
	for _, n := range ns {
		if !slices.Contains(ls, n.l) {
			ls = append(ls, n.l)
		}
	}
	return ls
}

// near is a lock Nearest offers, and how far it is from the one refused.
type near struct {
	l    Lock
	dist float64
}

// share is how far v is from the option's value, as a share of it.
func (o Option) share(v time.Duration) float64 {
	return math.Abs(float64(v-o.Value)) / float64(max(o.Value, time.Nanosecond))
}

// together is Nearest's offer where no one option will do: each varied
// option's nearest values below and above with the others at the
// library's defaults, in every combination the round model runs.
func together(lock Lock, tick time.Duration) []near {
	opts := lock.Options()
	choices := make([][]time.Duration, len(opts))
	for i, o := range opts {
		if !o.Varied() {
			choices[i] = []time.Duration{o.Value}
			continue
		}
		alone := lock
		for j, p := range opts {
			if j != i && p.Varied() {
				alone = alone.Options()[j].lockWith(p.Default)
			}
		}
		below, above, okB, okA := NearestValue(alone, i, o.Value, tick)
		if okB {
			choices[i] = append(choices[i], below)
		}
		if okA && (!okB || above != below) {
			choices[i] = append(choices[i], above)
		}
	}
	var ns []near
	var walk func(i int, l Lock, dist float64)
	walk = func(i int, l Lock, dist float64) {
		if i == len(opts) {
			if Takes(l, tick) == nil {
				ns = append(ns, near{l, dist})
			}
			return
		}
		for _, v := range choices[i] {
			walk(i+1, l.Options()[i].lockWith(v), dist+opts[i].share(v))
		}
	}
	walk(0, lock, 0)
	return ns
}
