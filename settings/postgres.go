package settings

import (
	"fmt"
	"math"
	"time"

	"github.com/leasesim/leasesim/model"
)

// Postgres is a PostgreSQL session-level advisory lock (pg_advisory_lock)
// held by a job on a connection of its own, the job working through other
// connections, among Nodes candidates each blocked in pg_advisory_lock on
// the same key.
//
// There is no lease and no renewal: the lock lives as long as the server
// keeps the session (the advisory lock functions of utils/adt/lockfuncs.c
// take it in the session's USER_LOCKMETHOD, which only
// pg_advisory_unlock or the backend's exit frees: ShutdownPostgres calls
// LockReleaseAll). A clean close or a crashed process, whose kernel
// closes its socket, ends the session at once, and the first waiter is
// granted the lock at once (lock.c ProcLockWakeup). A host that vanishes
// leaves an idle backend waiting on a socket that only the server's
// kernel can declare dead, by TCP keepalive: the socket options that
// PostgreSQL sets from tcp_keepalives_idle, _interval and _count
// (libpq/pqcomm.c pq_setkeepalivesidle and its siblings; 0 keeps the
// OS's) and tcp_user_timeout (pq_settcpusertimeout), counted by Linux's
// tcp_keepalive_timer from the last segment the server heard. The holder
// is never told: it learns only when it next uses that session.
type Postgres struct {
	KeepalivesIdle     time.Duration // tcp_keepalives_idle, whole seconds; 0: the OS's tcp_keepalive_time (Linux 7200 s)
	KeepalivesInterval time.Duration // tcp_keepalives_interval, whole seconds; 0: the OS's tcp_keepalive_intvl (Linux 75 s)
	KeepalivesCount    int           // tcp_keepalives_count; 0: the OS's tcp_keepalive_probes (Linux 9)
	UserTimeout        time.Duration // tcp_user_timeout, whole milliseconds; 0: the OS's, which is off
	// IdleSessionTimeout is idle_session_timeout (whole milliseconds; 0,
	// the default, is off): the server ends a session idle outside a
	// transaction for longer, the lock's session among them, whether its
	// holder is alive or not.
	IdleSessionTimeout time.Duration
	Nodes              int
}

// Linux's TCP keepalive defaults (include/net/tcp.h TCP_KEEPALIVE_TIME,
// TCP_KEEPALIVE_INTVL, TCP_KEEPALIVE_PROBES; the sysctls
// net.ipv4.tcp_keepalive_time, _intvl and _probes) and the largest values
// its socket options take (MAX_TCP_KEEPIDLE, MAX_TCP_KEEPINTVL,
// MAX_TCP_KEEPCNT): PostgreSQL's setsockopt fails above them.
const (
	linuxKeepaliveTime   = 7200 * time.Second
	linuxKeepaliveIntvl  = 75 * time.Second
	linuxKeepaliveProbes = 9
	linuxMaxKeepidle     = 32767 * time.Second
	linuxMaxKeepcnt      = 127
)

// PostgresDefaults is PostgreSQL's defaults: every TCP option 0, which
// leaves Linux's, and no idle_session_timeout.
func PostgresDefaults() Postgres { return Postgres{Nodes: 3} }

// Idle is the keepalive idle time in force: tcp_keepalives_idle, or
// Linux's 7200 s.
func (p Postgres) Idle() time.Duration { return orDefault(p.KeepalivesIdle, linuxKeepaliveTime) }

// Interval is the keepalive interval in force: tcp_keepalives_interval,
// or Linux's 75 s.
func (p Postgres) Interval() time.Duration {
	return orDefault(p.KeepalivesInterval, linuxKeepaliveIntvl)
}

// Count is the keepalive probe count in force: tcp_keepalives_count, or
// Linux's 9.
func (p Postgres) Count() int {
	if p.KeepalivesCount == 0 {
		return linuxKeepaliveProbes
	}
	return p.KeepalivesCount
}

// orDefault is v, or d where v is 0.
func orDefault(v, d time.Duration) time.Duration {
	if v == 0 {
		return d
	}
	return v
}

// Dead is when, after the last segment it heard from the holder, the
// server's kernel declares an idle session's socket dead
// (tcp_keepalive_timer): the first probe goes idle after it, then one
// every interval; without tcp_user_timeout the socket dies when count
// probes went unanswered, at idle + interval·count; with it, at the first
// of the probe times after the first probe that is user timeout or more
// after the last segment heard: idle + interval·max(1, ⌈(timeout −
// idle)/interval⌉), the count no longer mattering.
func (p Postgres) Dead() time.Duration {
	idle, intvl := p.Idle(), p.Interval()
	if p.UserTimeout == 0 {
		return idle + intvl*time.Duration(p.Count())
	}
	k := max(1, (p.UserTimeout-idle+intvl-1)/intvl)
	return idle + intvl*k
}

// Ended is when, after the holder's lock query on its otherwise idle
// session, the server ends the session: Dead, or idle_session_timeout if
// that comes first.
func (p Postgres) Ended() time.Duration {
	if p.IdleSessionTimeout > 0 {
		return min(p.Dead(), p.IdleSessionTimeout)
	}
	return p.Dead()
}

// Title names the lock and its options.
func (p Postgres) Title() string {
	ist := "off"
	if p.IdleSessionTimeout > 0 {
		ist = dur(p.IdleSessionTimeout)
	}
	ut := "off"
	if p.UserTimeout > 0 {
		ut = dur(p.UserTimeout)
	}
	return fmt.Sprintf("PostgreSQL session advisory lock: tcp_keepalives_idle %s, tcp_keepalives_interval %s, tcp_keepalives_count %d%s, tcp_user_timeout %s, idle_session_timeout %s, %d nodes; the holder is never told it lost the lock",
		dur(p.Idle()), dur(p.Interval()), p.Count(), osNote(p), ut, ist, p.Nodes)
}

// osNote says which keepalive options are Linux's.
func osNote(p Postgres) string {
	if p.KeepalivesIdle == 0 || p.KeepalivesInterval == 0 || p.KeepalivesCount == 0 {
		return " (0 given: Linux's)"
	}
	return ""
}

// Protocol is the server ending the session when keepalive declares its
// socket dead, the keepalive probes and their answers being its renewals;
// waiters blocked in pg_advisory_lock; a holder never told.
func (p Postgres) Protocol() Protocol {
	return Protocol{Expiry: ServerExpiry, Notice: Watch, Renewal: p.Idle(), Expires: p.Ended(), GiveUp: NeverTold}
}

// Validate refuses what PostgreSQL or Linux refuse: a negative option,
// keepalive times not whole seconds (the GUCs' unit) or above Linux's
// largest, a count above 127, timeouts not whole milliseconds.
func (p Postgres) Validate() error {
	for _, o := range []struct {
		name string
		v    time.Duration
		unit time.Duration
	}{{"tcp_keepalives_idle", p.KeepalivesIdle, time.Second}, {"tcp_keepalives_interval", p.KeepalivesInterval, time.Second},
		{"tcp_user_timeout", p.UserTimeout, time.Millisecond}, {"idle_session_timeout", p.IdleSessionTimeout, time.Millisecond}} {
		if o.v < 0 || o.v%o.unit != 0 {
			return fmt.Errorf("%s %s: want 0 or more whole %s", o.name, o.v, map[time.Duration]string{time.Second: "seconds", time.Millisecond: "milliseconds"}[o.unit])
		}
		if o.unit == time.Second && o.v > linuxMaxKeepidle {
			return fmt.Errorf("%s %s: want at most %s, Linux's largest (MAX_TCP_KEEPIDLE, MAX_TCP_KEEPINTVL)", o.name, o.v, linuxMaxKeepidle)
		}
	}
	if p.KeepalivesCount < 0 || p.KeepalivesCount > linuxMaxKeepcnt {
		return fmt.Errorf("tcp_keepalives_count %d: want 0 (Linux's 9) to %d, Linux's largest (MAX_TCP_KEEPCNT)", p.KeepalivesCount, linuxMaxKeepcnt)
	}
	return checkNodes(p.Nodes)
}

// Figures follow the server's keepalive on the lock's idle session; times
// are from the last segment the server heard from the holder (its lock
// query, or its kernel's answer to a keepalive probe).
func (p Postgres) Figures() []Figure {
	inf := math.Inf(1)
	ended, idle := p.Ended().Seconds(), p.Idle().Seconds()
	crashDoc := "a crashed process's kernel closes its socket and the waiter is granted at once (as takeover_after_release); a vanished host or a partition: "
	if p.UserTimeout == 0 {
		crashDoc += fmt.Sprintf("the server's kernel sends the first keepalive probe idle after the last segment it heard, then one every interval, and declares the socket dead when %d went unanswered (idle + interval × count = %s); the backend exits, freeing the lock, and the first waiter blocked in pg_advisory_lock is granted at once", p.Count(), dur(p.Dead()))
	} else {
		crashDoc += fmt.Sprintf("the server's kernel sends the first keepalive probe idle after the last segment it heard, then one every interval, and declares the socket dead at the first probe time, after the first probe, at least tcp_user_timeout after that segment (%s; tcp_keepalives_count no longer counts); the backend exits, freeing the lock, and the first waiter blocked in pg_advisory_lock is granted at once", dur(p.Dead()))
	}
	if p.IdleSessionTimeout > 0 && p.IdleSessionTimeout < p.Dead() {
		crashDoc += fmt.Sprintf("; idle_session_timeout ends the session first, %s after the holder's last query", dur(p.IdleSessionTimeout))
	}
	// A session that stays idle hears an answered probe every idle
	// seconds, so a silent outage starts 0 to idle after the last segment
	// heard; idle_session_timeout ends the session at its own time, outage
	// or not.
	dead := p.Dead().Seconds()
	survived := uniform(dead-idle, dead)
	if t := p.IdleSessionTimeout.Seconds(); t > 0 {
		survived = span{min(survived.min, t), min(survived.median, t), min(survived.max, t)}
	}
	return lockFigures(exact(inf), exact(0), survived, exact(ended), exact(0), exact(-inf), exact(inf), [7]string{
		"no bound: nobody tells the holder; it learns it lost the lock only when it next uses the lock's session, and work through other connections goes on",
		"none: a PostgreSQL that fails calls at once has ended the session (a restart or a crash of the server ends every session, and its advisory locks with them)",
		"the longest silent outage between the holder's host and the server that the session survives: it must end before keepalive declares the socket dead; by the outage's phase between the answered probes, sent every idle on a quiet connection",
		crashDoc,
		"pg_advisory_unlock, a closed connection or a crashed holder process (its kernel closes the socket): the backend frees the lock and the first waiter blocked in pg_advisory_lock is granted at once",
		"no bound: the holder is never told, so it leads beside its successor until it next uses the lock's session; its work on that session is fenced (the session is gone), its work through other connections is not",
		"no bound: the holder's kernel answers keepalive probes while the process is paused, so the session and the lock outlive any pause" + pauseNote(p),
	})
}

// pauseNote is what idle_session_timeout does to a live holder.
func pauseNote(p Postgres) string {
	if p.IdleSessionTimeout == 0 {
		return ""
	}
	return fmt.Sprintf("; but idle_session_timeout ends the idle lock session %s after the holder's last query on it, paused or not", dur(p.IdleSessionTimeout))
}

// NoMargin: the holder is never told.
func (p Postgres) NoMargin() string {
	s := "the server frees the lock when it ends the session and tells nobody, so a holder cut off from the server (or one whose session a pool recycles or resets with DISCARD ALL) works on beside the waiter that got the lock, until it next uses its session; only work on that session is fenced"
	if p.IdleSessionTimeout > 0 {
		s += fmt.Sprintf("; with idle_session_timeout %s the server ends an idle lock session that long after its last query even when its holder is alive and well, so a holder that does not use its session within it leads beside its successor", dur(p.IdleSessionTimeout))
	}
	return s
}

// Options is PostgreSQL's keepalive and timeout settings; a review's grid
// tries the keepalive idle and interval (0: Linux's 7200 s and 75 s) and
// keeps the count, tcp_user_timeout and idle_session_timeout.
func (p Postgres) Options() []Option {
	d := PostgresDefaults()
	return []Option{
		{Key: "tcp_keepalives_idle", Library: "tcp_keepalives_idle", Value: p.KeepalivesIdle, Default: d.KeepalivesIdle, Step: time.Second,
			Tries: []time.Duration{60 * time.Second, 300 * time.Second, 1200 * time.Second, 0},
			with:  func(v time.Duration) Settable { l := p; l.KeepalivesIdle = v; return l }},
		{Key: "tcp_keepalives_interval", Library: "tcp_keepalives_interval", Value: p.KeepalivesInterval, Default: d.KeepalivesInterval, Step: time.Second,
			Tries: []time.Duration{10 * time.Second, 0},
			with:  func(v time.Duration) Settable { l := p; l.KeepalivesInterval = v; return l }},
		{Key: "tcp_user_timeout", Library: "tcp_user_timeout", Value: p.UserTimeout, Default: d.UserTimeout, Step: time.Millisecond,
			with: func(v time.Duration) Settable { l := p; l.UserTimeout = v; return l }},
		{Key: "idle_session_timeout", Library: "idle_session_timeout", Value: p.IdleSessionTimeout, Default: d.IdleSessionTimeout, Step: time.Millisecond,
			with: func(v time.Duration) Settable { l := p; l.IdleSessionTimeout = v; return l }},
	}
}

// postgresFromRounds is the lock whose keepalive gives a lease of lease
// and a renewal of renewal: tcp_keepalives_idle the renewal, and the rest
// of the lease as Linux's 9 probes if that makes whole seconds, else as
// one probe; an option equal to Linux's given as 0.
func postgresFromRounds(lease, renewal time.Duration, nodes int) Postgres {
	p := Postgres{KeepalivesIdle: renewal, Nodes: nodes}
	rest := lease - renewal
	if p.KeepalivesInterval, p.KeepalivesCount = rest, 1; rest%(linuxKeepaliveProbes*time.Second) == 0 {
		p.KeepalivesInterval, p.KeepalivesCount = rest/linuxKeepaliveProbes, linuxKeepaliveProbes
	}
	if p.KeepalivesIdle == linuxKeepaliveTime {
		p.KeepalivesIdle = 0
	}
	if p.KeepalivesInterval == linuxKeepaliveIntvl {
		p.KeepalivesInterval = 0
	}
	if p.KeepalivesCount == linuxKeepaliveProbes {
		p.KeepalivesCount = 0
	}
	return p
}

// postgresRow is PostgreSQL's advisory lock as a row of LockRows: the
// round model runs it as protocol postgres, its lease the keepalive's
// idle + interval × count (or tcp_user_timeout's end) and its renewal the
// idle, the holder's kernel answering a probe that often;
// idle_session_timeout, which ends a live holder's session too, it
// refuses.
func postgresRow() LockRow {
	return LockRow{
		Preset: "postgres", Defaults: PostgresDefaults(), WithNodes: withNodes(func(p *Postgres) *int { return &p.Nodes }),
		Flags: []LockFlag{
			{Name: "tcp-keepalives-idle", Type: "duration", SettingsUsage: "postgres: tcp_keepalives_idle, whole seconds (0: the OS's, Linux 7200s)",
				Usage: "with --preset postgres: the server's tcp_keepalives_idle, whole seconds (default 0: Linux's 7200s), the first keepalive probe after the last segment heard: the model's retry period (the holder's kernel answers a probe that often)",
				Set:   nonNegativeField(func(p *Postgres) *time.Duration { return &p.KeepalivesIdle })},
			{Name: "tcp-keepalives-interval", Type: "duration", SettingsUsage: "postgres: tcp_keepalives_interval, whole seconds (0: the OS's, Linux 75s)",
				Usage: "with --preset postgres: tcp_keepalives_interval, whole seconds (default 0: Linux's 75s), between probes: the model's lease is idle + interval × count",
				Set:   nonNegativeField(func(p *Postgres) *time.Duration { return &p.KeepalivesInterval })},
			{Name: "tcp-keepalives-count", Type: "int", SettingsUsage: "postgres: tcp_keepalives_count (0: the OS's, Linux 9)",
				Usage: "with --preset postgres: tcp_keepalives_count (default 0: Linux's 9), the unanswered probes after which the server ends a vanished holder's session",
				Set:   countField(func(p *Postgres) *int { return &p.KeepalivesCount })},
			{Name: "tcp-user-timeout", Type: "duration", SettingsUsage: "postgres: tcp_user_timeout (0: off)",
				Usage: "with --preset postgres: tcp_user_timeout (default 0: off); the session ends at the first probe at least this long after the last segment heard: the model's lease",
				Set:   nonNegativeField(func(p *Postgres) *time.Duration { return &p.UserTimeout })},
			{Name: "idle-session-timeout", Type: "duration", SettingsUsage: "postgres: idle_session_timeout (0: off)",
				Refusal: "idle_session_timeout ends the lock's idle session even while its holder is alive and well, which the round model's holders never meet (leasesim settings gives its figures)",
				Set:     nonNegativeField(func(p *Postgres) *time.Duration { return &p.IdleSessionTimeout })},
		},
		Round: func(l Lock, r *RoundLock) bool {
			_, ok := l.(Postgres)
			r.Protocol = model.ProtocolPostgres
			return ok
		},
		Protocols: []model.LockProtocol{model.ProtocolPostgres},
		FromConfig: func(c model.Config, d func(int) time.Duration, nodes int) Lock {
			return postgresFromRounds(d(c.Lease), d(c.RetryPeriod), nodes)
		},
	}
}
