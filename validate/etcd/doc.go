// Package etcd checks leasesim's account of etcd's leader election
// (settings.Etcd: client/v3/concurrency's Session and Election) against
// etcd itself. Its tests start an embedded etcd server in-process
// (server/v3/embed, on a temporary directory and localhost ports), run
// real clients against it, each candidate with its own Session and
// Election, and measure in real time, at the least TTL the server grants
// (2 s): the takeover after the holder's process dies without revoking
// its lease, the takeover after Resign, and, with the holder cut off from
// the server by a proxy, when its Session.Done closes and when the next
// candidate leads. Each is compared with settings' figures for the same
// TTL. What it survives is tried by hand, not here: a holder's survival
// hangs on how soon its client reconnects, which a busy machine delays.
//
// It is a module of its own so that etcd and its dependencies stay out of
// leasesim's.
package etcd
