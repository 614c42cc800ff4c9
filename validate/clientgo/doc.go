// Package clientgo checks leasesim's account of client-go's leader
// election against client-go itself. Its tests run real
// k8s.io/client-go/tools/leaderelection electors, one per node, against an
// in-memory lock inside a testing/synctest bubble (fake time: a 137 s
// lease costs nothing), inject the faults leasesim models (an API outage
// whose calls fail at once or hang, a crash, a graceful stop), record when
// each node starts and stops leading, and compare with leasesim's figures
// for the same settings: the settings package's, and the round model's.
// A pause (the round model's: the process frozen) cannot be played on a
// bubble's clock, so TestPause runs the paused node as a process of its
// own, in real time, and freezes it with SIGSTOP.
//
// It is a module of its own so that client-go and its dependencies stay
// out of leasesim's.
package clientgo
