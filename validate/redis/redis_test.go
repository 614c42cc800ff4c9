package redis

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
)

// lease is the watchdog's lease, Redisson's lockWatchdogTimeout (30 s)
// scaled down; the watchdog renews every lease/3 (RenewalTask).
const (
	lease   = 3 * time.Second
	renewal = lease / 3
)

// The expected figures, in the terms of leasesim's settings, until
// settings has a Redisson lock to read them from. After a release the
// first waiter is woken by the unlock's publish: at once. After the
// holder's last renewal the key expires one lease later on Redis's clock,
// and the waiter, asleep for the PTTL its last try was given, tries again
// as it expires: one lease after the last renewal, which the holder made
// 0 to lease/3 before it stopped, so 2/3 to 1 lease after the stop.
var (
	takeoverAfterRelease = span{0, 0}
	takeoverAfterRenewal = span{lease, lease}
	takeoverAfterStop    = span{lease - renewal, lease}
)

// span is a figure's least and greatest value.
type span struct{ min, max time.Duration }

// trials is how many holders each test runs, as parallel subtests, each
// on a lock of its own.
const trials = 3

// The tolerances, in real time on a machine that may be busy, as
// validate/etcd's: early is how much sooner than the least figure a
// measurement may come (it starts when the test's goroutine had the
// renewal's answer, after Redis set the expiry, by a round trip on
// loopback and a goroutine's wake-up: milliseconds); late is how much
// later than the greatest it may come: Redis's and the test's goroutines'
// scheduling, the larger of 1 s and a quarter of the figure.
const early = 500 * time.Millisecond

func late(max time.Duration) time.Duration { return maxDur(time.Second, max/4) }

func maxDur(a, b time.Duration) time.Duration {
	if a > b {
		return a
	}
	return b
}

// Redisson's scripts (RedissonLock), keyed by the lock's name (KEYS[1])
// and its channel (KEYS[2]), the owner being ARGV's "<client id>:<thread
// id>": tryLockInnerAsync, renewExpirationAsync, unlockInnerAsync.
var (
	tryLock = redis.NewScript(`
if (redis.call('exists', KEYS[1]) == 0) or (redis.call('hexists', KEYS[1], ARGV[2]) == 1) then
	redis.call('hincrby', KEYS[1], ARGV[2], 1)
	redis.call('pexpire', KEYS[1], ARGV[1])
	return nil
end
return redis.call('pttl', KEYS[1])`)
	renew = redis.NewScript(`
if redis.call('hexists', KEYS[1], ARGV[2]) == 1 then
	redis.call('pexpire', KEYS[1], ARGV[1])
	return 1
end
return 0`)
	unlock = redis.NewScript(`
if redis.call('hexists', KEYS[1], ARGV[3]) == 0 then
	return nil
end
local counter = redis.call('hincrby', KEYS[1], ARGV[3], -1)
if counter > 0 then
	redis.call('pexpire', KEYS[1], ARGV[2])
	return 0
end
redis.call('del', KEYS[1])
redis.call('publish', KEYS[2], ARGV[1])
return 1`)
)

// unlockMessage is what unlock publishes (LockPubSub.UNLOCK_MESSAGE).
const unlockMessage = "0"

// addr is the test's server.
var addr string

// TestMain starts redis-server for all the tests and stops it after.
func TestMain(m *testing.M) {
	stop, err := startServer()
	if err != nil {
		fmt.Fprintln(os.Stderr, "redis:", err)
		os.Exit(1)
	}
	code := m.Run()
	stop()
	os.Exit(code)
}

// startServer starts redis-server on a free loopback port without
// persistence, in a temporary directory, and waits for its PING.
func startServer() (func(), error) {
	bin, err := exec.LookPath("redis-server")
	if err != nil {
		return nil, fmt.Errorf("no redis-server on the PATH: install Debian's redis-server package: %v", err)
	}
	dir, err := os.MkdirTemp("", "leasesim-redis-")
	if err != nil {
		return nil, err
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	_, port, _ := net.SplitHostPort(l.Addr().String())
	l.Close()
	addr = net.JoinHostPort("127.0.0.1", port)
	var log strings.Builder
	cmd := exec.Command(bin, "--port", port, "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", dir, "--daemonize", "no")
	cmd.Stdout, cmd.Stderr = &log, &log
	if err := cmd.Start(); err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	stop := func() {
		cmd.Process.Kill()
		<-exited
		os.RemoveAll(dir)
	}
	c := redis.NewClient(&redis.Options{Addr: addr})
	defer c.Close()
	for deadline := time.Now().Add(30 * time.Second); ; {
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		err := c.Ping(ctx).Err()
		cancel()
		if err == nil {
			return stop, nil
		}
		select {
		case err := <-exited:
			os.RemoveAll(dir)
			return nil, fmt.Errorf("redis-server exited: %v\n%s", err, log.String())
		case <-time.After(50 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			stop()
			return nil, fmt.Errorf("redis-server not ready after 30 s: %v\n%s", err, log.String())
		}
	}
}

// client is a Redis client of a test's own, closed at its end.
func client(t *testing.T) *redis.Client {
	t.Helper()
	c := redis.NewClient(&redis.Options{Addr: addr})
	t.Cleanup(func() { c.Close() })
	return c
}

// names hands each trial a lock of its own.
var names atomic.Int64

// lock is one RLock: its name, its channel and an owner.
type lock struct {
	c              *redis.Client
	name, channel  string
	owner          string
	mu             sync.Mutex
	renewed        time.Time // when the last renewal's answer came
	stop, finished chan struct{}
}

// newLock is a lock named for the trial, held by owner.
func newLock(t *testing.T, name int64, owner string) *lock {
	n := "lock:" + strconv.FormatInt(name, 10)
	return &lock{c: client(t), name: n, channel: "redisson_lock__channel:{" + n + "}", owner: owner}
}

// try runs tryLockInnerAsync: true if it took the lock, else the PTTL.
func (l *lock) try(ctx context.Context) (bool, time.Duration, error) {
	ttl, err := tryLock.Run(ctx, l.c, []string{l.name}, lease.Milliseconds(), l.owner).Int64()
	if errors.Is(err, redis.Nil) {
		return true, 0, nil
	}
	return false, time.Duration(ttl) * time.Millisecond, err
}

// renewOnce runs renewExpirationAsync: whether the owner still held it.
func (l *lock) renewOnce(ctx context.Context) (bool, error) {
	n, err := renew.Run(ctx, l.c, []string{l.name}, lease.Milliseconds(), l.owner).Int64()
	return n == 1, err
}

// hold takes a free lock and starts the watchdog: a renewal every
// lease/3 until stop, its failures and a lock found gone only noted, as
// RenewalTask logs them.
func (l *lock) hold(t *testing.T) {
	t.Helper()
	ctx := context.Background()
	ok, ttl, err := l.try(ctx)
	if err != nil || !ok {
		t.Fatalf("holder: took %v (pttl %v): %v", ok, ttl, err)
	}
	l.renewed = time.Now()
	l.stop, l.finished = make(chan struct{}), make(chan struct{})
	go func() {
		defer close(l.finished)
		tick := time.NewTicker(renewal)
		defer tick.Stop()
		for {
			select {
			case <-l.stop:
				return
			case <-tick.C:
			}
			if held, err := l.renewOnce(ctx); err == nil && held {
				l.mu.Lock()
				l.renewed = time.Now()
				l.mu.Unlock()
			}
		}
	}()
	t.Cleanup(l.stopRenewing)
}

// stopRenewing stops the watchdog (a crashed or frozen holder) and
// returns once it has.
func (l *lock) stopRenewing() {
	select {
	case <-l.stop:
	default:
		close(l.stop)
	}
	<-l.finished
}

// lastRenewal is when the last renewal's answer came.
func (l *lock) lastRenewal() time.Time {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.renewed
}

// wait runs RedissonLock.lock's loop for l in a goroutine: subscribe to
// the channel, try, and sleep for the PTTL or until an unlock message.
// It returns once the waiter has found the lock held and is asleep, and
// then delivers when it took the lock.
func (l *lock) wait(t *testing.T) <-chan grant {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	t.Cleanup(cancel)
	sub := l.c.Subscribe(ctx, l.channel)
	t.Cleanup(func() { sub.Close() })
	if _, err := sub.Receive(ctx); err != nil { // the subscription's confirmation
		t.Fatal(err)
	}
	messages := sub.Channel()
	asleep := make(chan error, 1)
	got := make(chan grant, 1)
	go func() {
		first := true
		for {
			ok, ttl, err := l.try(ctx)
			if err != nil {
				if first {
					asleep <- err
				}
				got <- grant{err: err}
				return
			}
			if ok {
				if first {
					asleep <- errors.New("the waiter took the lock at once: the holder did not hold it")
				}
				got <- grant{at: time.Now()}
				return
			}
			if first {
				asleep <- nil
				first = false
			}
			select {
			case <-messages:
			case <-time.After(ttl):
			case <-ctx.Done():
				got <- grant{err: ctx.Err()}
				return
			}
		}
	}()
	if err := <-asleep; err != nil {
		t.Fatal(err)
	}
	return got
}

// grant is when a waiter took the lock, or why it did not.
type grant struct {
	at  time.Time
	err error
}

// received is when the waiter took the lock, failing the test if it
// failed or did not within a minute.
func received(t *testing.T, got <-chan grant) time.Time {
	t.Helper()
	select {
	case g := <-got:
		if g.err != nil {
			t.Fatalf("waiter: %v", g.err)
		}
		return g.at
	case <-time.After(time.Minute):
		t.Fatal("the waiter did not take the lock within a minute")
		return time.Time{}
	}
}

// trialsOf runs trial in parallel subtests and returns what each
// measured, by the figures it measured.
func trialsOf(t *testing.T, trial func(t *testing.T) []time.Duration) [][]time.Duration {
	t.Helper()
	got := make([][]time.Duration, trials)
	t.Run("trials", func(t *testing.T) {
		for i := range got {
			t.Run(strconv.Itoa(i), func(t *testing.T) {
				t.Parallel()
				got[i] = trial(t)
			})
		}
	})
	if t.Failed() {
		t.FailNow()
	}
	return got
}

// within fails the test unless the k-th measurement of every trial lies
// in the figure's range, widened by the tolerances, and logs them with
// their least, median and greatest.
func within(t *testing.T, f span, what string, got [][]time.Duration, k int) {
	t.Helper()
	var ds []time.Duration
	for _, g := range got {
		ds = append(ds, g[k])
	}
	lo, hi := f.min-early, f.max+late(f.max)
	s := slices.Clone(ds)
	slices.Sort(s)
	t.Logf("%s: measured %v (min %v, median %v, max %v); expected %v … %v, allowed %v … %v", what, ds, s[0], s[len(s)/2], s[len(s)-1], f.min, f.max, lo, hi)
	for _, d := range ds {
		if d < lo || d > hi {
			t.Errorf("%s: %v, outside %v … %v widened to %v … %v", what, d, f.min, f.max, lo, hi)
		}
	}
}

// TestTakeoverAfterRelease: unlock deletes the key and publishes; the
// waiter, asleep on the holder's PTTL, wakes and takes the lock at once.
func TestTakeoverAfterRelease(t *testing.T) {
	got := trialsOf(t, func(t *testing.T) []time.Duration {
		name := names.Add(1)
		h, w := newLock(t, name, "holder:1"), newLock(t, name, "waiter:1")
		h.hold(t)
		granted := w.wait(t)
		time.Sleep(renewal) // the waiter asleep on a PTTL near a whole lease
		h.stopRenewing()
		released := time.Now()
		n, err := unlock.Run(context.Background(), h.c, []string{h.name, h.channel}, unlockMessage, lease.Milliseconds(), h.owner).Int64()
		if err != nil || n != 1 {
			t.Fatalf("unlock: %d, %v; want 1", n, err)
		}
		return []time.Duration{received(t, granted).Sub(released)}
	})
	within(t, takeoverAfterRelease, "takeover after unlock", got, 0)
}

// TestTakeoverAfterRenewalsStop: the watchdog stops (a crashed or frozen
// holder, or one cut off from Redis): the key expires one lease after the
// last renewal, and the waiter takes the lock then; the deposed holder's
// next renewal finds the lock gone, which Redisson only logs.
func TestTakeoverAfterRenewalsStop(t *testing.T) {
	got := trialsOf(t, func(t *testing.T) []time.Duration {
		name := names.Add(1)
		h, w := newLock(t, name, "holder:1"), newLock(t, name, "waiter:1")
		h.hold(t)
		granted := w.wait(t)
		time.Sleep(lease + lease/5) // renewals keep it past its first lease, stopping off their phase
		h.stopRenewing()
		stopped, last := time.Now(), h.lastRenewal()
		if stopped.Sub(last) > renewal+late(renewal) {
			t.Fatalf("the watchdog's last renewal came %v before it stopped, want within lease/3 = %v", stopped.Sub(last), renewal)
		}
		at := received(t, granted)
		if held, err := h.renewOnce(context.Background()); err != nil || held {
			t.Fatalf("the deposed holder's renewal: held %v, %v; want the lock gone", held, err)
		}
		if ok, _, err := w.try(context.Background()); err != nil || !ok {
			t.Fatalf("the waiter's re-entry: %v, %v; want the waiter holding", ok, err)
		}
		return []time.Duration{at.Sub(last), at.Sub(stopped)}
	})
	within(t, takeoverAfterRenewal, "takeover after the holder's last renewal", got, 0)
	within(t, takeoverAfterStop, "takeover after the watchdog stopped", got, 1)
}
