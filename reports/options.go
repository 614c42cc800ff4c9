package reports

import (
	"strings"

	"github.com/leasesim/leasesim/cost"
	"github.com/leasesim/leasesim/model"
	"github.com/leasesim/leasesim/settings"
)

// byOptions reports whether the deployment's lock is one of its own,
// whose candidates are named by its library's options (study's Setting)
// rather than by lease, renew deadline and retry period.
func (rv review) byOptions() bool { return rv.lockSetting(rv.Current().Candidate) != "" }

// lockSetting is k's setting by its lock's options (study's Setting),
// or "" under client-go, whose candidates report.md names by lease, renew
// deadline and retry period.
func (rv review) lockSetting(k cost.Candidate) string {
	if k.Protocol == model.ProtocolClientGo {
		return ""
	}
	return rv.Setting(k)
}

// deployedOptions is the options the review's grid varies for the
// deployment's lock.
func (rv review) deployedOptions() []settings.Option {
	var os []settings.Option
	if l := rv.LockOf(rv.Current().Candidate); l != nil {
		for _, o := range l.Options() {
			if o.Varied() {
				os = append(os, o)
			}
		}
	}
	return os
}

// optionKeys is the deployment's lock's varied options' keys, "session_ttl
// lock_delay", as the table's first column names them.
func (rv review) optionKeys() string {
	var ks []string
	for _, o := range rv.deployedOptions() {
		ks = append(ks, o.Key)
	}
	return strings.Join(ks, " ")
}

// optionLibraries says what the library calls each varied option:
// "session_ttl is concurrency.WithTTL".
func (rv review) optionLibraries() string {
	var ks []string
	for _, o := range rv.deployedOptions() {
		ks = append(ks, "`"+o.Key+"` is "+o.Library)
	}
	return andList(ks)
}

// sameLock reports whether k and current are both named by the options of
// one lock of its own.
func (rv review) sameLock(k, current cost.Candidate) bool {
	return k.Protocol == current.Protocol && rv.lockSetting(k) != "" && rv.lockSetting(current) != ""
}

// optionChanges is what setting k instead of current raises and lowers
// among a lock's options, "session_ttl to 90s", where both are named by
// the options of one lock.
func (rv review) optionChanges(k, current cost.Candidate) (raise, lower []string) {
	if !rv.sameLock(k, current) {
		return nil, nil
	}
	kl, cl := rv.LockOf(k), rv.LockOf(current)
	ko, co := kl.Options(), cl.Options()
	if len(ko) != len(co) {
		return nil, nil
	}
	for i := range ko {
		to := "`" + ko[i].Key + "` to " + ko[i].Text()
		switch {
		case ko[i].Value > co[i].Value:
			raise = append(raise, to)
		case ko[i].Value < co[i].Value:
			lower = append(lower, to)
		}
	}
	return raise, lower
}

// beyondOptions is k with current's lock-delay, acquire wait and
// disconnect delay where k is named by a lock's options, which say them:
// what is left for policyDiff to say (a change of protocol among it).
func (rv review) beyondOptions(k, current cost.Candidate) cost.Candidate {
	if rv.lockSetting(k) == "" {
		return k
	}
	k.LockDelay, k.AcquireWait, k.DisconnectDelay = current.LockDelay, current.AcquireWait, current.DisconnectDelay
	if k.Protocol == current.Protocol {
		k.Jitter = current.Jitter
	}
	return k
}
