package clientgo

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/leasesim/leasesim/model"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/client-go/tools/leaderelection"
	rl "k8s.io/client-go/tools/leaderelection/resourcelock"
)

// A pause (a stop-the-world collection, a stalled VM) cannot be
// played inside a synctest bubble: an elector's timers run on the bubble's
// clock, which a test cannot stop for one elector alone. So TestPause runs
// node 0 as a process of its own, this test binary started again with
// pausedNodeEnv set, talking to the store over HTTP, and freezes it with
// SIGSTOP and SIGCONT, in real time. Its settings are short (1 s lease) so
// that it takes seconds. A real-time test must not turn a busy machine's
// scheduling delays into a wrong verdict: TestPause measures how late its
// own timers fire while a scenario plays (lateness), allows for twice that
// beside 150 ms, and plays a scenario that was disturbed more than its
// margins bear again with every time doubled (pauseScale), up to eight
// times: a slow machine gets a slower test, not a failing one.

// pausedNodeEnv, set to the store's URL, makes the test binary run node 0
// (runPausedNode) instead of its tests; pauseScaleEnv gives its
// pauseScale.
const (
	pausedNodeEnv = "LEASESIM_PAUSED_NODE_STORE"
	pauseScaleEnv = "LEASESIM_PAUSED_NODE_SCALE"
)

// wire is the store's record and version over HTTP.
type wire struct {
	Record  *rl.LeaderElectionRecord `json:"record"`
	Version int                      `json:"version"`
}

// storeHandler serves st: GET the record, POST to create it, PUT to update
// it at the version last seen; 404 and 409 as the API server answers.
func storeHandler(st *store) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var in wire
		if r.Method != http.MethodGet {
			if err := json.NewDecoder(r.Body).Decode(&in); err != nil {
				http.Error(w, err.Error(), http.StatusBadRequest)
				return
			}
		}
		st.mu.Lock()
		defer st.mu.Unlock()
		switch {
		case r.Method == http.MethodGet && st.record == nil:
			w.WriteHeader(http.StatusNotFound)
			return
		case r.Method == http.MethodPost && st.record != nil,
			r.Method == http.MethodPut && (st.record == nil || in.Version != st.version):
			w.WriteHeader(http.StatusConflict)
			return
		case r.Method != http.MethodGet:
			st.record = in.Record
			st.version++
			select {
			case st.writes <- write{in.Record.HolderIdentity, time.Now()}:
			default:
			}
		}
		json.NewEncoder(w).Encode(wire{st.record, st.version})
	})
}

// httpLock is a resourcelock.Interface over storeHandler, checking
// updates against the version it last read or wrote, as lock does.
type httpLock struct {
	url, id string
	seen    int
}

func (l *httpLock) do(ctx context.Context, method string, body any) (*wire, int, error) {
	var rd *strings.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return nil, 0, err
		}
		rd = strings.NewReader(string(b))
	} else {
		rd = strings.NewReader("")
	}
	req, err := http.NewRequestWithContext(ctx, method, l.url+"/lease", rd)
	if err != nil {
		return nil, 0, err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, 0, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, resp.StatusCode, nil
	}
	var out wire
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil {
		return nil, 0, err
	}
	l.seen = out.Version
	return &out, http.StatusOK, nil
}

func (l *httpLock) Get(ctx context.Context) (*rl.LeaderElectionRecord, []byte, error) {
	out, code, err := l.do(ctx, http.MethodGet, nil)
	switch {
	case err != nil:
		return nil, nil, err
	case code == http.StatusNotFound:
		return nil, nil, apierrors.NewNotFound(resource, "lease")
	}
	// The raw record is what followers compare to see a renewal. A Lease's
	// record, marshalled as LeaseLock does, holds its times in whole
	// seconds, so with this test's 200 ms retry period followers would
	// see a renewal only once a second and take over up to a second early;
	// the version makes every renewal seen, as with a retry period of a
	// second or more.
	raw, err := json.Marshal(out)
	return out.Record, raw, err
}

func (l *httpLock) Create(ctx context.Context, r rl.LeaderElectionRecord) error {
	_, code, err := l.do(ctx, http.MethodPost, wire{Record: &r})
	if err == nil && code == http.StatusConflict {
		return apierrors.NewAlreadyExists(resource, "lease")
	}
	return err
}

func (l *httpLock) Update(ctx context.Context, r rl.LeaderElectionRecord) error {
	_, code, err := l.do(ctx, http.MethodPut, wire{Record: &r, Version: l.seen})
	if err == nil && code == http.StatusConflict {
		return apierrors.NewConflict(resource, "lease", fmt.Errorf("not at version %d", l.seen))
	}
	return err
}

func (l *httpLock) RecordEvent(string) {}
func (l *httpLock) Identity() string   { return l.id }
func (l *httpLock) Describe() string   { return "leases/lease" }

// pauseScale stretches TestPause's times: at 1, short client-go
// settings, valid (1 s > 600 ms > 1.2 × 200 ms), in whole rounds of 100 ms
// for the round model; at 2, every time twice that, and so on.
type pauseScale int

// maxPauseScale is the most TestPause stretches its times.
const maxPauseScale = 8

func (s pauseScale) of(d time.Duration) time.Duration { return time.Duration(s) * d }
func (s pauseScale) lease() time.Duration             { return s.of(time.Second) }
func (s pauseScale) deadline() time.Duration          { return s.of(600 * time.Millisecond) }
func (s pauseScale) retry() time.Duration             { return s.of(200 * time.Millisecond) }
func (s pauseScale) tick() time.Duration              { return s.of(100 * time.Millisecond) }

func pauseConfig(s pauseScale, id string, l rl.Interface, started, stopped func()) leaderelection.LeaderElectionConfig {
	return leaderelection.LeaderElectionConfig{
		Lock: l, LeaseDuration: s.lease(), RenewDeadline: s.deadline(), RetryPeriod: s.retry(), Name: "lease",
		Callbacks: leaderelection.LeaderCallbacks{OnStartedLeading: func(context.Context) { started() }, OnStoppedLeading: stopped},
	}
}

// runPausedNode is node 0's process: one elector against the store at url,
// at the scale pauseScaleEnv gives, saying on standard output when it
// starts and stops leading.
func runPausedNode(url string) {
	scale, err := strconv.Atoi(os.Getenv(pauseScaleEnv))
	if err != nil || scale < 1 {
		fmt.Fprintf(os.Stderr, "%s: want a whole number from 1: %v\n", pauseScaleEnv, err)
		os.Exit(1)
	}
	le, err := leaderelection.NewLeaderElector(pauseConfig(pauseScale(scale), "node0", &httpLock{url: url, id: "node0", seen: -1},
		func() { fmt.Println("started") }, func() { fmt.Println("stopped") }))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	le.Run(context.Background())
	select {} // stopped leading: the process lives on until it is killed
}

// lateness measures how late this process's timers fire, the scheduler's
// delay on a busy machine, which the frozen node and the followers suffer
// as well: the most a 5 ms sleep overran while it ran.
type lateness struct {
	stop chan struct{}
	most chan time.Duration
}

func startLateness() *lateness {
	l := &lateness{make(chan struct{}), make(chan time.Duration)}
	go func() {
		var most time.Duration
		for {
			select {
			case <-l.stop:
				l.most <- most
				return
			default:
			}
			t0 := time.Now()
			time.Sleep(5 * time.Millisecond)
			most = max(most, time.Since(t0)-5*time.Millisecond)
		}
	}()
	return l
}

// end stops the measure and returns the most a timer was late.
func (l *lateness) end() time.Duration {
	close(l.stop)
	return <-l.most
}

// TestPause: a leader frozen past its lease, whose record a follower takes
// while it is frozen, stops leading a renew deadline after it wakes, not
// when it wakes: its renew loop begins a cycle then. One frozen for less
// than the lease renews at once on waking and leads on. The round model's
// pause says the same: the woken node believes for exactly its renew
// deadline beside the new leader, and nobody takes over from the other.
func TestPause(t *testing.T) {
	for _, tc := range []struct {
		name     string
		pause    time.Duration // at scale 1
		takeover bool
	}{{"paused 2s", 2 * time.Second, true}, {"paused 600ms", 600 * time.Millisecond, false}} {
		t.Run(tc.name, func(t *testing.T) {
			var woke, stoppedAfter, took, firstWrite, lag time.Duration
			scale := pauseScale(1)
			for ; ; scale *= 2 {
				probe := startLateness()
				woke, stoppedAfter, took, firstWrite = pauseNode0(t, scale, scale.of(tc.pause))
				// The narrowest margin of the scenarios: a node frozen for
				// 600 ms must renew within the 400 ms left of its lease.
				if lag = probe.end(); lag <= scale.of(100*time.Millisecond) || scale == maxPauseScale {
					break
				}
				t.Logf("at scale %d this process's timers ran up to %v late: played again with every time doubled", scale, lag)
			}
			slack := scale.of(150*time.Millisecond) + 2*lag
			if tc.takeover {
				if took == 0 || took > scale.of(tc.pause) {
					t.Fatalf("no follower took over while node 0 was frozen (took %v)", took)
				}
				if stoppedAfter < scale.deadline()-slack || stoppedAfter > scale.deadline()+slack {
					t.Errorf("node 0 stopped leading %v after it woke; want its renew deadline, %v (±%v)", stoppedAfter, scale.deadline(), slack)
				}
			} else {
				if took != 0 || stoppedAfter != 0 {
					t.Errorf("a follower took over (%v) or node 0 stopped leading (%v after waking)", took, stoppedAfter)
				}
				if firstWrite > slack {
					t.Errorf("node 0 first renewed %v after it woke; want at once (within %v)", firstWrite, slack)
				}
			}
			t.Logf("at scale %d, timers up to %v late: woke %v after its last renewal; a follower took over %v after that renewal; node 0 stopped leading %v after waking and renewed %v after waking",
				scale, lag, woke, took, stoppedAfter, firstWrite)

			// The round model, one round a tick, frozen from the round after a renewal.
			c := model.Default()
			c.Nodes, c.Lease, c.RenewDeadline, c.RetryPeriod, c.RereadPeriod = 3, 10, 6, 2, 0
			c.Jitter, c.Pause, c.Start, c.Outage, c.Rounds = true, true, 21, int(tc.pause/pauseScale(1).tick()), 80
			for seed := range uint64(50) {
				r := model.Runner{JitterSeed: model.JitterSeed(seed)}
				st, err := r.Run(c)
				if err != nil {
					t.Fatal(err)
				}
				want := model.Stats{}
				if tc.takeover {
					want.Handovers, want.TwoLeaderRounds = 1, int(pauseScale(1).deadline()/pauseScale(1).tick())
				}
				if st.Handovers != want.Handovers || st.TwoLeaderRounds != want.TwoLeaderRounds {
					t.Fatalf("round model, seed %d: %d handovers and %d two-leader rounds; want %d and %d", seed, st.Handovers, st.TwoLeaderRounds, want.Handovers, want.TwoLeaderRounds)
				}
			}
		})
	}
}

// pauseNode0 starts node 0 in a process of its own and, once it leads,
// two followers here; pauses node 0 just after a renewal for pause, and
// returns when it woke (from the renewal), how long after waking it
// stopped leading and when, from the renewal, a follower took over (0 for
// neither), and how long after waking node 0 next wrote the record.
func pauseNode0(t *testing.T, scale pauseScale, pause time.Duration) (woke, stoppedAfter, took, firstWrite time.Duration) {
	st := &store{writes: make(chan write, 256)}
	srv := httptest.NewServer(storeHandler(st))
	defer srv.Close()

	child := exec.Command(os.Args[0], "-test.run=^$")
	child.Env = append(os.Environ(), pausedNodeEnv+"="+srv.URL, pauseScaleEnv+"="+strconv.Itoa(int(scale)))
	child.Stderr = os.Stderr
	out, err := child.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := child.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { child.Process.Kill(); child.Wait() }()
	lines := make(chan time.Time, 4) // when node 0 said each line, in order
	said := make(chan string, 4)
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			lines <- time.Now()
			said <- sc.Text()
		}
	}()
	expect := func(what string, within time.Duration) time.Time {
		select {
		case at := <-lines:
			if got := <-said; got != what {
				t.Fatalf("node 0 said %q, want %q", got, what)
			}
			return at
		case <-time.After(within):
			return time.Time{}
		}
	}
	if expect("started", 10*time.Second).IsZero() {
		t.Fatal("node 0 did not start leading")
	}

	ctx, cancel := context.WithCancel(context.Background())
	var mu sync.Mutex
	var followerStart time.Time
	var wg sync.WaitGroup
	for i := 1; i <= 2; i++ {
		id := fmt.Sprintf("node%d", i)
		le, err := leaderelection.NewLeaderElector(pauseConfig(scale, id, &httpLock{url: srv.URL, id: id, seen: -1},
			func() {
				mu.Lock()
				if followerStart.IsZero() {
					followerStart = time.Now()
				}
				mu.Unlock()
			}, func() {}))
		if err != nil {
			t.Fatal(err)
		}
		wg.Go(func() { le.Run(ctx) })
	}
	defer func() { cancel(); wg.Wait() }()
	time.Sleep(3 * scale.retry()) // the followers have read the record

	renewal := nextWrite(t, st, "node0", time.Now(), scale.lease())
	if renewal.IsZero() {
		t.Fatal("node 0 did not renew")
	}
	time.Sleep(scale.of(20 * time.Millisecond))
	if err := child.Process.Signal(syscall.SIGSTOP); err != nil {
		t.Fatal(err)
	}
	time.Sleep(pause - scale.of(20*time.Millisecond))
	wokeAt := time.Now()
	if err := child.Process.Signal(syscall.SIGCONT); err != nil {
		t.Fatal(err)
	}
	woke = wokeAt.Sub(renewal)
	if at := expect("stopped", scale.lease()+scale.deadline()); !at.IsZero() {
		stoppedAfter = at.Sub(wokeAt)
	}
	if w := nextWrite(t, st, "node0", wokeAt, scale.lease()); !w.IsZero() {
		firstWrite = w.Sub(wokeAt)
	}
	mu.Lock()
	defer mu.Unlock()
	if !followerStart.IsZero() {
		took = followerStart.Sub(renewal)
	}
	return woke, stoppedAfter, took, firstWrite
}

// nextWrite returns when holder next wrote the record at or after from (a
// write sent earlier is skipped), or the zero time if it did not within
// wait.
func nextWrite(t *testing.T, st *store, holder string, from time.Time, wait time.Duration) time.Time {
	t.Helper()
	timeout := time.After(wait)
	for {
		select {
		case w := <-st.writes:
			if w.id == holder && !w.at.Before(from) {
				return w.at
			}
		case <-timeout:
			return time.Time{}
		}
	}
}
