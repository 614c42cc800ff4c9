package model

// A lock protocol says who ends a lease that is no longer renewed, how a
// waiting candidate learns that the lock is free, and when a holder cut
// off from the lock service stops believing it leads (docs/model.md, Lock
// protocols). ProtocolClientGo is the round model of steps 1 to 6; the
// others are the lock services that end a lease on their own clock and
// tell the next candidate by a watch, each with its library's give-up
// rule. settings gives the same protocols in real time.

// LockProtocol is a value of Config.Protocol: the lock's protocol.
type LockProtocol int

// The protocols, in the order of their Param values; each is a row of
// protocolTable.
const (
	ProtocolClientGo       LockProtocol = iota // client-go's leaderelection: followers poll and count the lease
	ProtocolEtcd                               // etcd's concurrency election: the holder gives up a lease after its last renewal
	ProtocolConsul                             // Consul's api.Lock: the holder gives up at its first failed call; a lock-delay after an expiry
	ProtocolCurator                            // Curator on ZooKeeper, standard error policy: the holder gives up as it is disconnected
	ProtocolCuratorSession                     // the same under SessionConnectionStateErrorPolicy: a lease after it is disconnected
	NumProtocols           int          = iota // how many protocols there are
)

// giveUpRule is when a believer cut off from the lock service stops
// believing it leads.
type giveUpRule int

const (
	// giveUpByDeadline: client-go's renew deadline and re-reads.
	giveUpByDeadline giveUpRule = iota
	// giveUpAtLease: a lease after its last renewal, on its own clock (etcd).
	giveUpAtLease
	// giveUpAtFailedCall: in the first round it is down failing its calls
	// at once; never while they hang (Consul).
	giveUpAtFailedCall
	// giveUpAtDisconnect: in the first round it is down failing its calls at
	// once, or ⌈2·lease/3⌉ after its last renewal while they hang, on its
	// own clock (the ZooKeeper client's read timeout), plus afterLost.
	giveUpAtDisconnect
)

// protocolTraits is what a protocol does, a row of protocolTable.
type protocolTraits struct {
	name string // its Param value name
	// serverExpiry: the service frees the lock a lease after its last
	// renewal, on its own clock, and waiters learn at once (a watch);
	// otherwise each follower counts the lease at its polls (client-go).
	serverExpiry bool
	giveUp       giveUpRule
	afterLost    bool // with giveUpAtDisconnect, a further lease on the believer's clock (Curator's LOST)
	lockDelay    bool // the service may hold a freed lock for LockDelay after an expiry (Consul)
}

// protocolTable is the protocols' traits, indexed by LockProtocol. It is a
// function so that the package keeps no mutable globals.
func protocolTable() [NumProtocols]protocolTraits {
	return [...]protocolTraits{
		ProtocolClientGo:       {name: "client-go"},
		ProtocolEtcd:           {name: "etcd", serverExpiry: true, giveUp: giveUpAtLease},
		ProtocolConsul:         {name: "consul", serverExpiry: true, giveUp: giveUpAtFailedCall, lockDelay: true},
		ProtocolCurator:        {name: "curator", serverExpiry: true, giveUp: giveUpAtDisconnect},
		ProtocolCuratorSession: {name: "curator-session", serverExpiry: true, giveUp: giveUpAtDisconnect, afterLost: true},
	}
}

// lockProtocolNames returns the protocols' names, indexed by
// LockProtocol (Protocol.Names).
func lockProtocolNames() []string {
	names := make([]string, NumProtocols)
	for p, t := range protocolTable() {
		names[p] = t.name
	}
	return names
}

// traits returns p's row of protocolTable.
func (p LockProtocol) traits() protocolTraits { return protocolTable()[p] }
