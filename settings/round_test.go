package settings_test

import (
	"strings"
	"testing"
	"time"

	"github.com/leasesim/leasesim/model"
	"github.com/leasesim/leasesim/settings"
)

// TestRoundLockOf: each lock's round-model settings and tick, DynamoDB's
// among them: its lease, heartbeat period and additional time to wait
// as the model's lease, retry period and acquire wait, its refresh
// period as the round whatever its times.
func TestRoundLockOf(t *testing.T) {
	s, ms := time.Second, time.Millisecond
	tests := []struct {
		lock settings.Lock
		want settings.RoundLock
		tick time.Duration
	}{
		{settings.EtcdDefaults(), settings.RoundLock{Protocol: model.ProtocolEtcd, Lease: 60 * s, RetryPeriod: 20 * s}, s},
		{settings.ConsulDefaults(), settings.RoundLock{Protocol: model.ProtocolConsul, Lease: 30 * s, RetryPeriod: 7500 * ms, LockDelay: 15 * s}, 500 * ms},
		{settings.DynamoDBDefaults(), settings.RoundLock{Protocol: model.ProtocolDynamoDB, Lease: 20 * s, RetryPeriod: 5 * s, AcquireWait: s, Refresh: s}, s},
		{settings.DynamoDB{LeaseDuration: 30 * s, HeartbeatPeriod: 10 * s, RefreshPeriod: 2 * s, AdditionalWait: 4 * s, Nodes: 3},
			settings.RoundLock{Protocol: model.ProtocolDynamoDB, Lease: 30 * s, RetryPeriod: 10 * s, AcquireWait: 4 * s, Refresh: 2 * s}, 2 * s},
		{settings.DynamoDB{LeaseDuration: 3 * s, HeartbeatPeriod: s, RefreshPeriod: 250 * ms, AdditionalWait: 0, Nodes: 3},
			settings.RoundLock{Protocol: model.ProtocolDynamoDB, Lease: 3 * s, RetryPeriod: s, Refresh: 250 * ms}, 250 * ms},
	}
	for _, tt := range tests {
		r, ok := settings.RoundLockOf(tt.lock)
		if !ok || r != tt.want || r.Tick() != tt.tick {
			t.Errorf("%s: %+v, %t, tick %s; want %+v, tick %s", tt.lock.Title(), r, ok, r.Tick(), tt.want, tt.tick)
		}
	}
}

// TestDynamoDBRoundError: the round model takes a lease, heartbeat period
// and additional time to wait of whole refresh periods only, and names
// the first that is not as the caller names its options.
func TestDynamoDBRoundError(t *testing.T) {
	s, ms := time.Second, time.Millisecond
	flag := func(o string) string { return "--" + o }
	tests := []struct {
		d    settings.DynamoDB
		want string // in the error, or "" for none
	}{
		{settings.DynamoDBDefaults(), ""},
		{settings.DynamoDB{LeaseDuration: 20 * s, HeartbeatPeriod: 5 * s, RefreshPeriod: s, AdditionalWait: 0}, ""},
		{settings.DynamoDB{LeaseDuration: 21 * s, HeartbeatPeriod: 4 * s, RefreshPeriod: 2 * s, AdditionalWait: 2 * s}, "--lease 21s is not a whole number of --refresh-period 2s"},
		{settings.DynamoDB{LeaseDuration: 20 * s, HeartbeatPeriod: 1500 * ms, RefreshPeriod: s, AdditionalWait: s}, "--heartbeat-period 1.5s is not a whole number of --refresh-period 1s"},
		{settings.DynamoDB{LeaseDuration: 20 * s, HeartbeatPeriod: 4 * s, RefreshPeriod: 2 * s, AdditionalWait: s}, "--additional-time-to-wait 1s is not a whole number of --refresh-period 2s"},
	}
	for _, tt := range tests {
		err := tt.d.RoundError(flag)
		switch {
		case tt.want == "" && err != nil:
			t.Errorf("%s: %v, want none", tt.d.Title(), err)
		case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
			t.Errorf("%s: %v, want %q", tt.d.Title(), err, tt.want)
		}
	}
}
