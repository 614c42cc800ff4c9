// Package postgres checks leasesim's account of PostgreSQL's session
// advisory locks (settings.Postgres) against a real server. Its tests
// start a PostgreSQL of their own (initdb into a temporary directory, the
// postgres binary on a free port, as nobody when run as root), hold
// pg_advisory_lock in a holder process (the test binary run again) and
// measure in real time when a waiter blocked in pg_advisory_lock on
// another connection gets the lock: after the holder's process is killed
// or closes its connection (at once), after the holder's host vanishes
// (the holder in a network namespace of its own whose link the test takes
// down, so that the server's keepalive probes go unanswered: idle +
// interval × count, or tcp_user_timeout), and after idle_session_timeout
// ends the idle session of a holder that is alive; and that with the OS's
// keepalive (Linux's 2 h 11 min 15 s) a vanished holder keeps the lock
// for the 20 s the test watches. Each is compared with settings' figures
// for the same options.
//
// The network namespaces need root (CI runs as root) and iproute2's ip;
// the server's binaries are found by pg_config --bindir,
// /usr/lib/postgresql/*/bin or the PATH. It is a module of its own so
// that the PostgreSQL client stays out of leasesim's dependencies.
package postgres
