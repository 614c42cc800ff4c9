package clientgo

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/runtime/schema"
	rl "k8s.io/client-go/tools/leaderelection/resourcelock"
)

// fault is how a node's calls to the API fail.
type fault int

const (
	healthy   fault = iota
	fastFail        // every call fails at once
	blackHole       // every call hangs until its timeout or its context ends
	slowAPI         // every call hangs until the API answers again (the fault ends), its timeout or its context ends
)

// store is the API server's one lease: the record and its version (the
// resource version optimistic updates are checked against). Each write
// that names its writer the holder is sent on writes, if it has room.
type store struct {
	mu      sync.Mutex
	record  *rl.LeaderElectionRecord
	version int
	writes  chan write
}

// write is a successful write of the record by the holder it names.
type write struct {
	id string
	at time.Time
}

var resource = schema.GroupResource{Group: "coordination.k8s.io", Resource: "leases"}

// lock is one node's view of the store, a resourcelock.Interface as
// client-go's LeaseLock is: an update carries the version of the node's
// last read or write and fails if the store has moved on.
type lock struct {
	s        *store
	id       string
	seen     int // the version this node last read or wrote; -1 before any
	node     *node
	callTime time.Duration // how long a hanging call waits: the client's timeout
}

// call is one call to the API. A call whose context's deadline has come
// fails unmade: in real time client-go's renew deadline, whose context is
// made before the retry ticker, ends before the attempt due at the same
// instant, which synctest's fake clock would otherwise let either go first.
func (l *lock) call(ctx context.Context) error {
	if d, ok := ctx.Deadline(); ok && !time.Now().Before(d) {
		return context.DeadlineExceeded
	}
	l.node.called()
	switch l.node.fault() {
	case fastFail:
		return errors.New("connection refused")
	case blackHole, slowAPI:
		t := time.NewTimer(l.callTime)
		defer t.Stop()
		var answered <-chan struct{} // never, for a black hole
		if l.node.fault() == slowAPI {
			answered = l.node.recovered()
		}
		select {
		case <-t.C:
			return errors.New("client timeout")
		case <-ctx.Done():
			return ctx.Err()
		case <-answered:
		}
	}
	return nil
}

func (l *lock) Get(ctx context.Context) (*rl.LeaderElectionRecord, []byte, error) {
	if err := l.call(ctx); err != nil {
		return nil, nil, err
	}
	l.s.mu.Lock()
	defer l.s.mu.Unlock()
	if l.s.record == nil {
		return nil, nil, apierrors.NewNotFound(resource, "lease")
	}
	r := *l.s.record
	raw, err := json.Marshal(r)
	l.seen = l.s.version
	return &r, raw, err
}

func (l *lock) Create(ctx context.Context, r rl.LeaderElectionRecord) error {
	if err := l.call(ctx); err != nil {
		return err
	}
	l.s.mu.Lock()
	defer l.s.mu.Unlock()
	if l.s.record != nil {
		return apierrors.NewAlreadyExists(resource, "lease")
	}
	l.write(r)
	return nil
}

func (l *lock) Update(ctx context.Context, r rl.LeaderElectionRecord) error {
	if err := l.call(ctx); err != nil {
		return err
	}
	l.s.mu.Lock()
	defer l.s.mu.Unlock()
	if l.s.record == nil || l.seen != l.s.version {
		return apierrors.NewConflict(resource, "lease", fmt.Errorf("version %d, not %d", l.s.version, l.seen))
	}
	l.write(r)
	return nil
}

// write stores r; the caller holds the store's lock.
func (l *lock) write(r rl.LeaderElectionRecord) {
	l.s.record = &r
	l.s.version++
	l.seen = l.s.version
	if r.HolderIdentity == l.id {
		select {
		case l.s.writes <- write{l.id, time.Now()}:
		default:
		}
	}
}

func (l *lock) RecordEvent(string) {}
func (l *lock) Identity() string   { return l.id }
func (l *lock) Describe() string   { return "leases/lease" }
