package postgres

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/leasesim/leasesim/settings"
)

// The server's keepalive, set in its configuration for every connection:
// a probe after 1 s of silence, then one a second, the socket dead when 2
// went unanswered, so that a vanished holder's lock is freed after about
// 3 s rather than 2 h 11 min.
const (
	keepalivesIdle     = time.Second
	keepalivesInterval = time.Second
	keepalivesCount    = 2
)

// trials is how many holders each test runs, as parallel subtests, each
// with its own lock key (and, cut off, its own network namespace).
const trials = 3

// The tolerances, in real time on a machine that may be busy. A
// measurement starts when the test reads the holder's "held" line, which
// it prints as its lock query returns: after the server sent the answer
// and its backend went idle, by a pipe's and a goroutine's latency
// (milliseconds). The holder's kernel acknowledges the answer within
// Linux's delayed-ACK bound of 200 ms, and the server's keepalive counts
// from that acknowledgement, so a takeover after a vanished host may come
// up to 200 ms later than settings' figure, never sooner but by the
// latencies: early is 0.5 s. late is how much later than settings'
// greatest figure it may come: the kernel's timers, the backend's exit,
// the waiter's wake-up and the test's goroutines may each be delayed on a
// busy machine, so the larger of 1 s and a quarter of the figure.
const early = 500 * time.Millisecond

func late(max time.Duration) time.Duration { return maxDur(time.Second, max/4) }

func maxDur(a, b time.Duration) time.Duration {
	if a > b {
		return a
	}
	return b
}

// The holder process's environment: the connection string, the lock key
// and the settings it makes on its session before it takes the lock.
const (
	holderEnv = "LEASESIM_PG_HOLDER"
	keyEnv    = "LEASESIM_PG_KEY"
	setEnv    = "LEASESIM_PG_SET"
)

// srv is the test's server: its port, and the network it lets in.
var srv struct{ port string }

// TestMain runs the holder when the test binary is started as one, and
// otherwise starts the server for all the tests and stops it after.
func TestMain(m *testing.M) {
	if dsn := os.Getenv(holderEnv); dsn != "" {
		if err := hold(dsn, os.Getenv(keyEnv), os.Getenv(setEnv)); err != nil {
			fmt.Fprintln(os.Stderr, "holder:", err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	stop, err := startServer()
	if err != nil {
		fmt.Fprintln(os.Stderr, "postgres:", err)
		os.Exit(1)
	}
	code := m.Run()
	stop()
	os.Exit(code)
}

// hold is the holder process: it connects, makes its settings (name=value
// pairs separated by ;), takes the lock, prints "held" and waits; a
// "close" line on its input closes the connection (a Terminate message)
// and ends it.
func hold(dsn, key, set string) error {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	conn, err := pgx.Connect(ctx, dsn)
	if err != nil {
		cancel()
		return err
	}
	for _, kv := range strings.Split(set, ";") {
		if kv == "" {
			continue
		}
		name, value, _ := strings.Cut(kv, "=")
		if _, err := conn.Exec(ctx, "SELECT set_config($1, $2, false)", name, value); err != nil {
			cancel()
			return err
		}
	}
	if _, err := conn.Exec(ctx, "SELECT pg_advisory_lock($1)", key); err != nil {
		cancel()
		return err
	}
	cancel()
	fmt.Println("held")
	in := bufio.NewScanner(os.Stdin)
	for in.Scan() {
		if in.Text() == "close" {
			return conn.Close(context.Background())
		}
	}
	select {} // killed by the test
}

// startServer initialises a cluster in a temporary directory and starts
// postgres on a free port, listening on every address (the holders'
// namespaces reach it on their links), with the keepalive above; as
// nobody when run as root, which PostgreSQL refuses to run as. It returns
// a function that stops the server and removes the directory.
func startServer() (func(), error) {
	bin, err := bindir()
	if err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp("", "leasesim-postgres-")
	if err != nil {
		return nil, err
	}
	cleanup := func() { os.RemoveAll(dir) }
	var cred *syscall.Credential
	if os.Geteuid() == 0 {
		u, err := user.Lookup("nobody")
		if err != nil {
			cleanup()
			return nil, fmt.Errorf("running as root, and no user nobody to run postgres as: %v", err)
		}
		uid, _ := strconv.Atoi(u.Uid)
		gid, _ := strconv.Atoi(u.Gid)
		cred = &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid)}
		if err := os.Chmod(dir, 0o755); err != nil {
			cleanup()
			return nil, err
		}
	}
	data, sock := filepath.Join(dir, "data"), filepath.Join(dir, "sock")
	for _, d := range []string{data, sock} {
		if err := os.Mkdir(d, 0o700); err != nil {
			cleanup()
			return nil, err
		}
		if cred != nil {
			if err := os.Chown(d, int(cred.Uid), int(cred.Gid)); err != nil {
				cleanup()
				return nil, err
			}
		}
	}
	run := func(name string, args ...string) *exec.Cmd {
		c := exec.Command(filepath.Join(bin, name), args...)
		c.SysProcAttr = &syscall.SysProcAttr{Credential: cred, Setpgid: true}
		c.Env = append(os.Environ(), "LC_ALL=C")
		return c
	}
	if out, err := run("initdb", "-D", data, "-U", "postgres", "-A", "trust", "--no-sync").CombinedOutput(); err != nil {
		cleanup()
		return nil, fmt.Errorf("initdb: %v\n%s", err, out)
	}
	hba, err := os.OpenFile(filepath.Join(data, "pg_hba.conf"), os.O_APPEND|os.O_WRONLY, 0)
	if err == nil {
		_, err = io.WriteString(hba, "host all all 10.0.0.0/8 trust\n")
		err = errors.Join(err, hba.Close())
	}
	if err != nil {
		cleanup()
		return nil, err
	}
	port, err := freePort()
	if err != nil {
		cleanup()
		return nil, err
	}
	srv.port = port
	var log strings.Builder
	pg := run("postgres", "-D", data, "-p", port, "-k", sock, "-c", "listen_addresses=*", "-c", "fsync=off", "-c", "max_connections=60",
		"-c", fmt.Sprintf("tcp_keepalives_idle=%d", int(keepalivesIdle.Seconds())), "-c", fmt.Sprintf("tcp_keepalives_interval=%d", int(keepalivesInterval.Seconds())),
		"-c", fmt.Sprintf("tcp_keepalives_count=%d", keepalivesCount))
	pg.Stdout, pg.Stderr = &log, &log
	if err := pg.Start(); err != nil {
		cleanup()
		return nil, err
	}
	exited := make(chan error, 1)
	go func() { exited <- pg.Wait() }()
	stop := func() {
		pg.Process.Signal(syscall.SIGINT) // fast shutdown
		select {
		case <-exited:
		case <-time.After(30 * time.Second):
			pg.Process.Kill()
			<-exited
		}
		cleanup()
	}
	for deadline := time.Now().Add(60 * time.Second); ; {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		conn, err := pgx.Connect(ctx, dsn("127.0.0.1"))
		if err == nil {
			conn.Close(ctx)
			cancel()
			return stop, nil
		}
		cancel()
		select {
		case err := <-exited:
			cleanup()
			return nil, fmt.Errorf("postgres exited: %v\n%s", err, log.String())
		case <-time.After(100 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			stop()
			return nil, fmt.Errorf("postgres not ready after a minute: %v\n%s", err, log.String())
		}
	}
}

// bindir returns the directory of the server's binaries: pg_config's, a
// Debian cluster's (the newest), or the PATH's pg_ctl's; the first that
// holds both initdb and postgres.
func bindir() (string, error) {
	var dirs []string
	if out, err := exec.Command("pg_config", "--bindir").Output(); err == nil {
		dirs = append(dirs, strings.TrimSpace(string(out)))
	}
	debian, _ := filepath.Glob("/usr/lib/postgresql/*/bin")
	slices.SortFunc(debian, func(a, b string) int { return version(b) - version(a) })
	dirs = append(dirs, debian...)
	if p, err := exec.LookPath("pg_ctl"); err == nil {
		if r, err := filepath.EvalSymlinks(p); err == nil {
			dirs = append(dirs, filepath.Dir(r))
		}
	}
	for _, d := range dirs {
		if executable(filepath.Join(d, "initdb")) && executable(filepath.Join(d, "postgres")) {
			return d, nil
		}
	}
	return "", fmt.Errorf("no PostgreSQL server binaries (initdb and postgres) in %q: install Debian's postgresql package", dirs)
}

// version is a Debian cluster directory's major version, 0 if none.
func version(dir string) int {
	n, _ := strconv.Atoi(filepath.Base(filepath.Dir(dir)))
	return n
}

func executable(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && fi.Mode().IsRegular() && fi.Mode()&0o111 != 0
}

// freePort returns a port free a moment ago.
func freePort() (string, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	defer l.Close()
	_, port, _ := net.SplitHostPort(l.Addr().String())
	return port, nil
}

// dsn is the connection string to the test's server at host.
func dsn(host string) string {
	return fmt.Sprintf("host=%s port=%s user=postgres dbname=postgres sslmode=disable connect_timeout=10", host, srv.port)
}

// keys hands each trial a lock key of its own.
var keys atomic.Int64

// holder is a running holder process.
type holder struct {
	cmd   *exec.Cmd
	stdin io.WriteCloser
	key   int64
	held  time.Time // when the test read its "held" line
}

// startHolder starts the test binary as a holder of key, reaching the
// server at host, inside the network namespace ns if not "", with the
// session settings set; it returns once the holder holds the lock.
func startHolder(t *testing.T, ns, host string, key int64, set string) *holder {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	args := []string{exe, "-test.run=^$"}
	if ns != "" {
		args = append([]string{"ip", "netns", "exec", ns}, args...)
	}
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Env = append(os.Environ(), holderEnv+"="+dsn(host), keyEnv+"="+strconv.FormatInt(key, 10), setEnv+"="+set)
	cmd.Stderr = os.Stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan struct{})
	go func() { cmd.Wait(); close(exited) }()
	t.Cleanup(func() { cmd.Process.Kill(); <-exited })
	line := make(chan string, 1)
	go func() {
		s := bufio.NewScanner(stdout)
		s.Scan()
		line <- s.Text()
		io.Copy(io.Discard, stdout)
	}()
	select {
	case l := <-line:
		if l != "held" {
			t.Fatalf("holder printed %q, want held", l)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("holder did not take the lock within 30 s")
	}
	return &holder{cmd: cmd, stdin: stdin, key: key, held: time.Now()}
}

// connect opens a connection from the test's own namespace.
func connect(t *testing.T) *pgx.Conn {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, dsn("127.0.0.1"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close(context.Background()) })
	return conn
}

// grant is when a waiter got the lock, or why it did not.
type grant struct {
	at  time.Time
	err error
}

// wait starts a waiter blocked in pg_advisory_lock(key), returns once the
// server shows it waiting, and then delivers when it got the lock.
func wait(t *testing.T, key int64) <-chan grant {
	t.Helper()
	w, watcher := connect(t), connect(t)
	got := make(chan grant, 1)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	t.Cleanup(cancel)
	go func() {
		_, err := w.Exec(ctx, "SELECT pg_advisory_lock($1)", key)
		got <- grant{time.Now(), err}
	}()
	// An int8 key is the lock's classid (high half) and objid (low half),
	// objsubid 1 (lockfuncs.c SET_LOCKTAG_INT64).
	for deadline := time.Now().Add(10 * time.Second); ; {
		var waiting int
		if err := watcher.QueryRow(ctx, "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND objid = $1 AND objsubid = 1 AND NOT granted", key).Scan(&waiting); err != nil {
			t.Fatal(err)
		}
		if waiting == 1 {
			return got
		}
		if time.Now().After(deadline) {
			t.Fatal("the waiter is not waiting for the lock after 10 s")
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// figure returns settings' figure of a metric for p.
func figure(t *testing.T, p settings.Postgres, metric string) settings.Figure {
	t.Helper()
	if err := p.Validate(); err != nil {
		t.Fatal(err)
	}
	for _, f := range p.Figures() {
		if f.Metric == metric {
			return f
		}
	}
	t.Fatalf("settings has no figure %s for PostgreSQL", metric)
	return settings.Figure{}
}

func seconds(s float64) time.Duration { return time.Duration(s * float64(time.Second)) }

// within fails the test unless every measurement lies in the figure's
// range, widened by the tolerances, and logs them beside it with their
// least, median and greatest.
func within(t *testing.T, f settings.Figure, what string, got []time.Duration) {
	t.Helper()
	lo, hi := seconds(f.Min)-early, seconds(f.Max)+late(seconds(f.Max))
	s := slices.Clone(got)
	slices.Sort(s)
	t.Logf("%s: measured %v (min %v, median %v, max %v); settings' %s %g … %g s, allowed %s … %s",
		what, got, s[0], s[len(s)/2], s[len(s)-1], f.Metric, f.Min, f.Max, lo, hi)
	for _, d := range got {
		if d < lo || d > hi {
			t.Errorf("%s: %s, outside settings' %s %g … %g s widened to %s … %s", what, d, f.Metric, f.Min, f.Max, lo, hi)
		}
	}
}

// trialsOf runs trial in parallel subtests and returns what each measured.
func trialsOf(t *testing.T, trial func(t *testing.T) time.Duration) []time.Duration {
	t.Helper()
	got := make([]time.Duration, trials)
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

// received is when the waiter got the lock, failing the test if it
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
		t.Fatal("the waiter did not get the lock within a minute")
		return time.Time{}
	}
}

// served is the server's keepalive as settings' lock.
func served() settings.Postgres {
	return settings.Postgres{KeepalivesIdle: keepalivesIdle, KeepalivesInterval: keepalivesInterval, KeepalivesCount: keepalivesCount, Nodes: 2}
}

// TestTakeoverAfterKill: a holder process killed on a live host: its
// kernel closes the socket, the backend exits and the waiter gets the
// lock at once (settings' takeover_after_release, which
// takeover_after_crash's doc says a crashed process takes).
func TestTakeoverAfterKill(t *testing.T) {
	f := figure(t, served(), "takeover_after_release")
	within(t, f, "takeover after the holder's process is killed", trialsOf(t, func(t *testing.T) time.Duration {
		key := keys.Add(1)
		h := startHolder(t, "", "127.0.0.1", key, "")
		got := wait(t, key)
		killed := time.Now()
		if err := h.cmd.Process.Kill(); err != nil {
			t.Fatal(err)
		}
		return received(t, got).Sub(killed)
	}))
}

// TestTakeoverAfterClose: a holder that closes its connection frees the
// lock at once.
func TestTakeoverAfterClose(t *testing.T) {
	f := figure(t, served(), "takeover_after_release")
	within(t, f, "takeover after the holder closes its connection", trialsOf(t, func(t *testing.T) time.Duration {
		key := keys.Add(1)
		h := startHolder(t, "", "127.0.0.1", key, "")
		got := wait(t, key)
		closed := time.Now()
		if _, err := io.WriteString(h.stdin, "close\n"); err != nil {
			t.Fatal(err)
		}
		return received(t, got).Sub(closed)
	}))
}

// TestTakeoverAfterIdleSessionTimeout: a live holder whose session sets
// idle_session_timeout loses the lock that long after its lock query,
// its process running on and never told (settings'
// takeover_after_crash is the timeout, as it comes before the keepalive's
// 3 s).
func TestTakeoverAfterIdleSessionTimeout(t *testing.T) {
	p := served()
	p.IdleSessionTimeout = 2 * time.Second
	f := figure(t, p, "takeover_after_crash")
	within(t, f, "takeover from a live holder after idle_session_timeout 2s", trialsOf(t, func(t *testing.T) time.Duration {
		key := keys.Add(1)
		h := startHolder(t, "", "127.0.0.1", key, "idle_session_timeout=2s")
		at := received(t, wait(t, key))
		if err := h.cmd.Process.Signal(syscall.Signal(0)); err != nil {
			t.Fatalf("the holder is gone (%v); it should run on, never told", err)
		}
		return at.Sub(h.held)
	}))
}

// TestTakeoverAfterVanish: the holder's host vanishes (its namespace's
// link goes down, nothing closes): the server's keepalive declares the
// socket dead idle + interval × count = 1 + 1 × 2 = 3 s after the last
// segment it heard, and not before.
func TestTakeoverAfterVanish(t *testing.T) {
	f := figure(t, served(), "takeover_after_crash")
	within(t, f, "takeover after the holder's host vanishes (keepalive 1/1/2)", trialsOf(t, func(t *testing.T) time.Duration {
		return vanish(t, "")
	}))
}

// TestTakeoverAfterVanishUserTimeout: the same with tcp_user_timeout
// 2.5 s and tcp_keepalives_count 5 on the holder's session: the socket
// dies at the first probe time after the first probe 2.5 s or more after
// the last segment heard, 1 + 1 × ⌈1.5⌉ = 3 s, where the count alone
// would give 1 + 5 = 6 s.
func TestTakeoverAfterVanishUserTimeout(t *testing.T) {
	p := served()
	p.KeepalivesCount, p.UserTimeout = 5, 2500*time.Millisecond
	f := figure(t, p, "takeover_after_crash")
	if count := (settings.Postgres{KeepalivesIdle: p.KeepalivesIdle, KeepalivesInterval: p.KeepalivesInterval, KeepalivesCount: 5, Nodes: 2}).Dead(); seconds(f.Max)+late(seconds(f.Max)) >= count {
		t.Fatalf("the tolerance reaches the count's %s: the test could not tell the user timeout from the count", count)
	}
	within(t, f, "takeover after the holder's host vanishes (tcp_user_timeout 2.5s, count 5)", trialsOf(t, func(t *testing.T) time.Duration {
		return vanish(t, "tcp_keepalives_count=5;tcp_user_timeout=2500")
	}))
}

// nets numbers the trials' namespaces.
var nets atomic.Int64

// vanish runs a holder with the session settings set in a network
// namespace of its own, takes its link down once a waiter waits, and
// returns when the waiter got the lock after the holder's "held".
func vanish(t *testing.T, set string) time.Duration {
	h, got := cutOff(t, set)
	return received(t, got).Sub(h.held)
}

// cutOff runs a holder with the session settings set in a network
// namespace of its own and takes its link down once a waiter waits; it
// returns the holder and the waiter's grant.
func cutOff(t *testing.T, set string) (*holder, <-chan grant) {
	n := nets.Add(1)
	pid := os.Getpid()
	ns := fmt.Sprintf("leasesim-pg-%d-%d", pid, n)
	host, peer := fmt.Sprintf("lpg%dh%d", pid%100000, n), fmt.Sprintf("lpg%dn%d", pid%100000, n)
	subnet := fmt.Sprintf("10.%d.%d", 20+pid%200, n)
	ip := func(args ...string) {
		t.Helper()
		if out, err := exec.Command("ip", args...).CombinedOutput(); err != nil {
			t.Fatalf("ip %s: %v: %s (the test needs root and iproute2 for network namespaces)", strings.Join(args, " "), err, out)
		}
	}
	ip("netns", "add", ns)
	t.Cleanup(func() { exec.Command("ip", "netns", "del", ns).Run() })
	ip("link", "add", host, "type", "veth", "peer", "name", peer, "netns", ns)
	t.Cleanup(func() { exec.Command("ip", "link", "del", host).Run() })
	ip("addr", "add", subnet+".1/30", "dev", host)
	ip("link", "set", host, "up")
	ip("-n", ns, "addr", "add", subnet+".2/30", "dev", peer)
	ip("-n", ns, "link", "set", peer, "up")
	ip("-n", ns, "link", "set", "lo", "up")
	key := keys.Add(1)
	h := startHolder(t, ns, subnet+".1", key, set)
	got := wait(t, key)
	// Cut once the holder's kernel has acknowledged the lock's answer
	// (Linux delays an ACK by at most 200 ms), and before the first
	// keepalive probe, idle after that.
	time.Sleep(time.Until(h.held.Add(300 * time.Millisecond)))
	if since := time.Since(h.held); since > keepalivesIdle/2 {
		t.Fatalf("the link would go down %s after the lock was taken, too near the first keepalive probe at %s: the machine is too busy", since, keepalivesIdle)
	}
	ip("-n", ns, "link", "set", peer, "down")
	return h, got
}

// TestNoTakeoverWithLinuxKeepalive: a holder whose session puts back the
// OS's keepalive (0: Linux's 7200 s, 75 s, 9) keeps the lock after its
// host vanished, settings' takeover being 7875 s: the test watches for
// 20 s (the other tests' takeovers come within 3 s) and sees the holder's
// backend still holding the lock, the waiter still waiting.
func TestNoTakeoverWithLinuxKeepalive(t *testing.T) {
	f := figure(t, settings.PostgresDefaults(), "takeover_after_crash")
	watch := 20 * time.Second
	if seconds(f.Min)-early <= watch {
		t.Fatalf("settings' takeover %g s is within the %s the test watches", f.Min, watch)
	}
	h, got := cutOff(t, "tcp_keepalives_idle=0;tcp_keepalives_interval=0;tcp_keepalives_count=0")
	select {
	case g := <-got:
		t.Fatalf("the waiter got the lock %s after the holder's host vanished (err %v); settings' takeover is %g s", g.at.Sub(h.held), g.err, f.Min)
	case <-time.After(watch):
	}
	var held int
	if err := connect(t).QueryRow(context.Background(), "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND objid = $1 AND objsubid = 1 AND granted", h.key).Scan(&held); err != nil {
		t.Fatal(err)
	}
	if held != 1 {
		t.Fatalf("%d sessions hold the lock %s after the holder's host vanished, want the vanished holder's", held, watch)
	}
	t.Logf("no takeover %s after the holder's host vanished, with the OS's keepalive: its backend still holds the lock (settings' takeover_after_crash %g s)", watch, f.Min)
}
