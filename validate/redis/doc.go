// Package redis checks, against a real Redis, the rule leasesim is to
// take for Redisson's RLock with its watchdog (issue 48, point 2): a lease
// on Redis's clock, renewed every lease/3 by a script that checks the
// owner, waiters woken at once by a release's publish and otherwise at the
// lease's expiry, and a holder that is never told it lost the lock.
//
// Its tests start a redis-server of their own (Debian's redis-server
// package, on a free loopback port, no persistence) and run Redisson's
// own Lua scripts through go-redis: RedissonLock.tryLockInnerAsync (take
// or re-enter the hash, PEXPIRE the lease, else return the PTTL),
// renewExpirationAsync (PEXPIRE only if this owner's field is there) and
// unlockInnerAsync (decrement, DEL and PUBLISH to
// redisson_lock__channel:{name}); the waiter loops as RedissonLock.lock
// does, subscribed to that channel and sleeping for the PTTL it was
// given. Redisson's 30 s lockWatchdogTimeout is scaled down to a 3 s
// lease renewed every 1 s. They measure when a waiter gets the lock after
// the holder releases it (at once) and after it stops renewing (one lease
// after its last renewal, so within one lease of the stop), and that the
// deposed holder's next renewal finds the lock gone, which Redisson only
// logs. Its expected figures are in the tests (settings has no Redisson
// lock yet).
//
// It is a module of its own so that the Redis client stays out of
// leasesim's dependencies.
package redis
