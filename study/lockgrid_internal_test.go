package study

import (
	"testing"
	"time"

	"github.com/leasesim/leasesim/cost"
	"github.com/leasesim/leasesim/model"
	"github.com/leasesim/leasesim/settings"
)

// TestLockCandidates: under a lock of its own a review's candidates are
// its options' grid, each run by the lock's own renewal and named by its
// options: an etcd session of 60 s at 1 s rounds gives TTLs whose
// keep-alive is TTL/3 (180 s renews every 60 s, not the deployment's
// 20 s), a Consul session TTLs renewed every TTL/2 and expired at twice
// it, with its lock-delays; a candidate listed with options is named by
// them (lock_delay=12s, which its waiters meet as 15 s).
func TestLockCandidates(t *testing.T) {
	for _, tt := range []struct {
		lock     settings.Lock
		listed   settings.Lock
		tick     time.Duration
		lease    func(k lockTimes) bool // the protocol's lease and renewal
		want     int
		listedAs string
	}{
		{settings.EtcdDefaults(), nil, time.Second, func(k lockTimes) bool { return k.lease == 3*k.retry }, 8, ""},
		{settings.ConsulDefaults(), settings.Consul{SessionTTL: 10 * time.Second, LockDelay: 12 * time.Second, Nodes: 3}, 500 * time.Millisecond,
			func(k lockTimes) bool { return k.lease == 4*k.retry && k.lockDelay%10 == 0 }, 21, "session_ttl=10s lock_delay=12s"},
	} {
		t.Run(tt.lock.Title(), func(t *testing.T) {
			r, _ := settings.RoundLockOf(tt.lock)
			base := model.Default()
			base.Protocol, base.Jitter, base.RenewDeadline, base.RereadPeriod = r.Protocol, false, 0, 0
			base.Lease, base.RetryPeriod, base.LockDelay = int(r.Lease/tt.tick), int(r.RetryPeriod/tt.tick), int(r.LockDelay/tt.tick)
			base.Period, base.Rounds = 3600, 4*3600
			if err := base.Validate(); err != nil {
				t.Fatal(err)
			}
			rv := &Review{Base: base, ReviewOptions: ReviewOptions{Tick: model.Tick(tt.tick), Lock: tt.lock}}
			n := tt.want
			if tt.listed != nil {
				lr, _ := settings.RoundLockOf(tt.listed)
				k, ok := WithLock(cost.CandidateOf(rv.Base), lr, rv.Tick)
				if !ok {
					t.Fatal("the listed lock does not fit")
				}
				rv.CandidateList, rv.CandidateLocks = append(rv.CandidateList, k), append(rv.CandidateLocks, tt.listed)
			}
			ks, skipped := rv.candidates()
			if len(ks) != n || skipped != 0 {
				t.Errorf("%d candidates, %d skipped; want %d, 0", len(ks), skipped, n)
			}
			seen := map[string]bool{}
			for _, k := range ks {
				name := rv.Setting(k)
				l := rv.LockOf(k)
				if l == nil || name == "" || seen[name] || settings.Takes(l, tt.tick) != nil || !tt.lease(timesOf(k)) {
					t.Errorf("candidate %+v: named %q (seen %t), lock %v, not as its protocol runs it", k, name, seen[name], l)
				}
				seen[name] = true
			}
			if tt.listedAs != "" && !seen[tt.listedAs] {
				t.Errorf("the listed candidate is not named %s: %v", tt.listedAs, seen)
			}
			if got := rv.Setting(cost.CandidateOf(rv.Base)); got != settings.Setting(tt.lock) {
				t.Errorf("the current settings are named %q, want %q", got, settings.Setting(tt.lock))
			}
		})
	}
}
