package consul

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hashicorp/consul/api"
)

// agent is a Consul agent's HTTP API, as much of it as api.Lock uses:
// sessions (create, renew, destroy) with a TTL the server enforces at
// twice its length, and a key-value store with acquire, release, blocking
// queries and the lock-delay an invalidated session leaves on its keys.
// It follows the server's rules as Consul's code has them:
// agent/consul/session_ttl.go (createSessionTimer: the timer is
// TTL × SessionTTLMultiplier, reset by each renewal; invalidateSession),
// agent/consul/state/kvs.go and session.go (kvsLockTxn refuses a key
// held by another session or under a lock-delay; deleteSessionTxn frees
// the session's keys and sets their lock-delay; kvsUnlockTxn frees
// without one) and agent/consul/kvs_endpoint.go (blocking queries: a GET
// with ?index waits until the index passes it or its wait ends). It is
// not Consul: its purpose is to run the real api.Lock client, whose own
// rules (renew every TTL/2, give up at the first failed monitor query,
// retry every 5 s under a lock-delay) are what the tests check, against
// a server whose times the test knows exactly. Consul's own server is
// not an open-source module leasesim may depend on.
//
// Each client is told apart by its ACL token (X-Consul-Token). A token
// can be cut off (every request of it, in flight or new, fails at once:
// its connection is closed) or hung (every request of it, in flight or
// new, gets no answer until the outage ends, heal, and then its answer),
// as an outage of that client's calls.
type agent struct {
	t  *testing.T
	mu sync.Mutex
	// index is the key-value store's raft index; changed is closed and
	// replaced at every change of it, to wake blocking queries.
	index    uint64
	changed  chan struct{}
	sessions map[string]*session
	kv       map[string]*api.KVPair
	delay    map[string]time.Time // a key's lock-delay: nobody may acquire it before then
	nextID   int
	// off is each token's outage: cut or hung; absent, none. outage is
	// closed and replaced when a token's outage begins, to reach the
	// requests in flight.
	off    map[string]string
	outage chan struct{}
	// last is each token's latest renewal (or session creation) as the
	// agent made it, for the tests to measure from; then is an outage to
	// begin for a token right after its next renewal.
	last map[string]time.Time
	then map[string]string
	// done is closed as the test ends: every request in flight or new is
	// then dropped, so that the server's Close need not wait for a
	// blocking query a client sends as its connection is closed.
	done chan struct{}
}

// session is a Consul session: its TTL, lock-delay, token and timer.
type session struct {
	id, token      string
	ttl, lockDelay time.Duration
	timer          *time.Timer
}

// newAgent starts an agent on a localhost port and returns it with its
// address.
func newAgent(t *testing.T) (*agent, string) {
	a := &agent{t: t, changed: make(chan struct{}), sessions: map[string]*session{}, kv: map[string]*api.KVPair{},
		delay: map[string]time.Time{}, off: map[string]string{}, outage: make(chan struct{}), last: map[string]time.Time{}, then: map[string]string{}, done: make(chan struct{})}
	s := httptest.NewServer(http.HandlerFunc(a.serve))
	t.Cleanup(func() {
		a.mu.Lock()
		for _, s := range a.sessions {
			s.timer.Stop()
		}
		close(a.done)
		a.mu.Unlock()
		s.CloseClientConnections()
		s.Close()
	})
	return a, strings.TrimPrefix(s.URL, "http://")
}

// client is a Consul API client of the agent with its own token.
func client(t *testing.T, addr, token string) *api.Client {
	t.Helper()
	c, err := api.NewClient(&api.Config{Address: addr, Scheme: "http", Token: token})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// afterRenewal begins an outage of token's calls right after its next
// renewal: how is "cut" (every call fails at once, those in flight too)
// or "hang" (no call gets an answer).
func (a *agent) afterRenewal(token, how string) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.then[token] = how
}

// heal ends the outage of token's calls: those that hung are answered
// now.
func (a *agent) heal(token string) {
	a.mu.Lock()
	defer a.mu.Unlock()
	delete(a.off, token)
	close(a.outage)
	a.outage = make(chan struct{})
}

// lastRenewal is token's latest renewal as the agent made it.
func (a *agent) lastRenewal(token string) time.Time {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.last[token]
}

// begin begins an outage of token's calls. a.mu is held.
func (a *agent) begin(token, how string) {
	a.off[token] = how
	close(a.outage)
	a.outage = make(chan struct{})
}

// serve answers one request, as the agent's HTTP API does, unless its
// token is off.
func (a *agent) serve(w http.ResponseWriter, r *http.Request) {
	token := r.Header.Get("X-Consul-Token")
	select {
	case <-a.done:
		a.drop(w)
		return
	default:
	}
	if a.refused(w, r, token) {
		return
	}
	path := r.URL.Path
	switch {
	case r.Method == http.MethodPut && path == "/v1/session/create":
		a.create(w, r, token)
	case r.Method == http.MethodPut && strings.HasPrefix(path, "/v1/session/renew/"):
		a.renew(w, strings.TrimPrefix(path, "/v1/session/renew/"))
	case r.Method == http.MethodPut && strings.HasPrefix(path, "/v1/session/destroy/"):
		a.mu.Lock()
		a.invalidate(strings.TrimPrefix(path, "/v1/session/destroy/"))
		a.mu.Unlock()
		fmt.Fprint(w, "true")
	case r.Method == http.MethodGet && strings.HasPrefix(path, "/v1/kv/"):
		a.get(w, r, token, strings.TrimPrefix(path, "/v1/kv/"))
	case r.Method == http.MethodPut && strings.HasPrefix(path, "/v1/kv/"):
		a.put(w, r, strings.TrimPrefix(path, "/v1/kv/"))
	default:
		http.Error(w, "not in this fake: "+r.Method+" "+path, http.StatusNotImplemented)
	}
}

// refused ends a request of a token that is off: a cut one's connection
// is closed at once, a hung one's waits, unanswered, until the test ends.
func (a *agent) refused(w http.ResponseWriter, r *http.Request, token string) bool {
	for {
		a.mu.Lock()
		how, outage := a.off[token], a.outage
		a.mu.Unlock()
		switch how {
		case "cut":
			a.drop(w)
			return true
		case "hang": // answered once the outage ends
			select {
			case <-outage:
				continue
			case <-r.Context().Done():
				return true
			case <-a.done:
				a.drop(w)
				return true
			}
		}
		return false
	}
}

// drop closes the request's connection without an answer.
func (a *agent) drop(w http.ResponseWriter) {
	if c, _, err := http.NewResponseController(w).Hijack(); err == nil {
		c.Close()
	}
}

// create makes a session: PUT /v1/session/create with the TTL and
// lock-delay api.Lock gives (createSession).
func (a *agent) create(w http.ResponseWriter, r *http.Request, token string) {
	var body struct{ Name, TTL, LockDelay string }
	if err := json.NewDecoder(r.Body).Decode(&body); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	ttl, err := time.ParseDuration(body.TTL)
	if err != nil {
		http.Error(w, "TTL: "+err.Error(), http.StatusBadRequest)
		return
	}
	delay := 15 * time.Second // the session's default lock-delay (agent/session_endpoint.go)
	if body.LockDelay != "" {
		if delay, err = time.ParseDuration(body.LockDelay); err != nil {
			http.Error(w, "LockDelay: "+err.Error(), http.StatusBadRequest)
			return
		}
	}
	a.mu.Lock()
	a.nextID++
	s := &session{id: fmt.Sprintf("session-%d", a.nextID), token: token, ttl: ttl, lockDelay: delay}
	s.timer = time.AfterFunc(2*ttl, func() { a.expire(s.id) })
	a.sessions[s.id] = s
	a.last[token] = time.Now()
	a.mu.Unlock()
	json.NewEncoder(w).Encode(map[string]string{"ID": s.id})
}

// renew resets a session's timer, or answers 404 for one that is gone.
func (a *agent) renew(w http.ResponseWriter, id string) {
	a.mu.Lock()
	defer a.mu.Unlock()
	s, ok := a.sessions[id]
	if !ok {
		http.Error(w, "session not found", http.StatusNotFound)
		return
	}
	s.timer.Reset(2 * s.ttl)
	a.last[s.token] = time.Now()
	json.NewEncoder(w).Encode([]map[string]string{{"ID": id, "TTL": s.ttl.String()}})
	if how, ok := a.then[s.token]; ok {
		delete(a.then, s.token)
		http.NewResponseController(w).Flush() // the renewal is answered; what follows is the outage
		a.begin(s.token, how)
	}
}

// expire invalidates a session whose timer ran out.
func (a *agent) expire(id string) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.invalidate(id)
}

// invalidate ends a session, frees its keys and sets their lock-delay.
// a.mu is held.
func (a *agent) invalidate(id string) {
	s, ok := a.sessions[id]
	if !ok {
		return
	}
	s.timer.Stop()
	delete(a.sessions, id)
	for key, p := range a.kv {
		if p.Session == id {
			p.Session = ""
			if s.lockDelay > 0 {
				a.delay[key] = time.Now().Add(s.lockDelay)
			}
			a.bump(p)
		}
	}
}

// bump records a change of p. a.mu is held.
func (a *agent) bump(p *api.KVPair) {
	a.index++
	p.ModifyIndex = a.index
	close(a.changed)
	a.changed = make(chan struct{})
}

// get answers GET /v1/kv/KEY, blocking while ?index is given and not
// passed, up to ?wait. A token whose calls are cut off while it waits
// gets its connection closed; one whose calls hang gets no answer until
// the outage ends.
func (a *agent) get(w http.ResponseWriter, r *http.Request, token, key string) {
	var index uint64
	if s := r.URL.Query().Get("index"); s != "" {
		index, _ = strconv.ParseUint(s, 10, 64)
	}
	wait := 5 * time.Minute
	if s := r.URL.Query().Get("wait"); s != "" {
		if d, err := time.ParseDuration(s); err == nil {
			wait = d
		}
	}
	timeout := time.After(wait)
	for {
		a.mu.Lock()
		how, changed, outage := a.off[token], a.changed, a.outage
		if how == "" && (index == 0 || a.index > index) {
			break // a.mu is held
		}
		a.mu.Unlock()
		if how == "cut" {
			a.drop(w)
			return
		}
		select { // a hung query waits for the outage's end, and then for the index
		case <-changed:
		case <-outage:
		case <-timeout:
			index = 0
		case <-r.Context().Done():
			return
		case <-a.done:
			a.drop(w)
			return
		}
	}
	p, ok := a.kv[key]
	var out []api.KVPair
	if ok {
		out = []api.KVPair{*p}
	}
	idx := a.index
	a.mu.Unlock()
	w.Header().Set("X-Consul-Index", strconv.FormatUint(idx, 10))
	w.Header().Set("X-Consul-LastContact", "0")
	w.Header().Set("X-Consul-KnownLeader", "true")
	if !ok {
		w.WriteHeader(http.StatusNotFound)
		return
	}
	json.NewEncoder(w).Encode(out)
}

// put answers PUT /v1/kv/KEY?acquire=SESSION or ?release=SESSION with
// true or false, as kvsLockTxn and kvsUnlockTxn decide.
func (a *agent) put(w http.ResponseWriter, r *http.Request, key string) {
	q := r.URL.Query()
	flags, _ := strconv.ParseUint(q.Get("flags"), 10, 64)
	a.mu.Lock()
	defer a.mu.Unlock()
	p, ok := a.kv[key]
	if !ok {
		p = &api.KVPair{Key: key, Flags: flags}
	}
	done := false
	switch {
	case q.Has("acquire"):
		id := q.Get("acquire")
		_, live := a.sessions[id]
		switch {
		case !live, time.Now().Before(a.delay[key]), p.Session != "" && p.Session != id:
		default:
			if p.Session != id {
				p.LockIndex++
			}
			p.Session, p.Flags, done = id, flags, true
		}
	case q.Has("release"):
		if ok && p.Session == q.Get("release") {
			p.Session, done = "", true
		}
	default:
		http.Error(w, "a plain write is not in this fake", http.StatusNotImplemented)
		return
	}
	if done {
		if !ok {
			a.kv[key] = p
		}
		a.bump(p)
	}
	fmt.Fprint(w, done)
}
