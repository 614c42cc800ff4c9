package model

// The persistent trigger's queue holds the slots no node could start yet,
// in trigger order. Slots queue a period apart, as they fall due, but
// buffer-one keeps only the earliest waiting when a node starts the first
// and skips the others: slots queued after that, while nobody can start
// them, follow the one kept with a gap. So the queue is its first slot
// (queuedFirst) and, while two or more wait, a second (queuedSecond) that
// the rest follow a period apart.

// enqueue queues the k slots due at first, first+Period, …: they come
// after every slot already waiting.
func (x *state) enqueue(first, k int) {
	switch x.queued {
	case 0:
		x.queuedFirst, x.queuedSecond = first, first+x.c.Period
	case 1:
		x.queuedSecond = first
	}
	x.queued += k
}

// queuedSlot is the trigger round of waiting batch i, 0 the first.
func (x *state) queuedSlot(i int) int {
	if i == 0 {
		return x.queuedFirst
	}
	return x.queuedSecond + (i-1)*x.c.Period
}

// queuedSum is the sum of the trigger rounds of the n earliest waiting
// batches.
func (x *state) queuedSum(n int) int {
	if n == 0 {
		return 0
	}
	m := n - 1
	return x.queuedFirst + m*x.queuedSecond + x.c.Period*(m*(m-1)/2)
}

// dropQueued removes the n earliest slots from the queue.
func (x *state) dropQueued(n int) {
	if n == 0 {
		return
	}
	x.queuedFirst = x.queuedSlot(n)
	x.queuedSecond = x.queuedFirst + x.c.Period
	x.queued -= n
}

// expired is how many of the queued batches have slots more than the
// catch-up window before round t, so that a node starting in round t may
// no longer run them: the waiting slots r with r < t − W.
func (x *state) expired(t int) int {
	w, p := x.c.CatchUpWindow, x.c.Period
	limit := t - w
	if w == 0 || x.queued == 0 || x.queuedFirst >= limit {
		return 0
	}
	n := 1 // the first; then those from the second on
	if d := limit - x.queuedSecond; d > 0 {
		n += (d + p - 1) / p
	}
	return min(x.queued, n)
}
