// Package consul checks leasesim's account of Consul's leader election
// (settings.Consul: api.Lock with a session of its own) against the real
// api.Lock client. Consul's server is not an open-source module leasesim
// may depend on, so its tests run the client against an agent of their
// own (fake_test.go): the HTTP API api.Lock uses, following the server's
// rules for sessions (invalidated at twice their TTL after the last
// renewal), keys (acquire, release, blocking queries) and the lock-delay
// an invalidated session leaves, with each client's calls able to fail at
// once or hang. They measure in real time, at a TTL of 1 s and a
// lock-delay of 1 s: the holder's give-up and the takeover when its calls
// are cut off, the takeover while they hang (and that the holder still
// believes: no margin), that a shorter hang is survived, and the takeover
// after Unlock. Each is compared with settings' figures for the same
// session. What is checked is the client's side of the protocol: its
// renewals every TTL/2, its monitor's give-up at the first failed query,
// its retries every 5 s while a lock-delay refuses it.
//
// It is a module of its own so that the Consul API client and its
// dependencies stay out of leasesim's.
package consul
