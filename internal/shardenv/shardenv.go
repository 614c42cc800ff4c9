// Package shardenv reads which shard of a sharded run a process is from
// the environment of the engine that started it, for --shard auto and
// --shard auto/N: a Slurm array job's task (SLURM_ARRAY_TASK_ID less
// SLURM_ARRAY_TASK_MIN, of SLURM_ARRAY_TASK_COUNT, since arrays are often
// numbered from 1) or a Kubernetes Indexed Job's completion index
// (JOB_COMPLETION_INDEX, from 0, of the N given: the Job's completions).
// The environment is read through a getenv function, so that a caller
// can be given any.
package shardenv

import (
	"fmt"
	"strconv"
	"strings"
)

// The variables the engines set.
const (
	SlurmID    = "SLURM_ARRAY_TASK_ID"
	SlurmMin   = "SLURM_ARRAY_TASK_MIN"
	SlurmCount = "SLURM_ARRAY_TASK_COUNT"
	JobIndex   = "JOB_COMPLETION_INDEX"
)

// Syntax is what Parse accepts, for messages.
const Syntax = "auto (a Slurm array job's task) or auto/N (a Kubernetes Indexed Job's index, of N)"

// IsAuto reports whether s asks for the shard from the environment: it
// is auto or starts auto/.
func IsAuto(s string) bool { return s == "auto" || strings.HasPrefix(s, "auto/") }

// Parse reads s, auto or auto/N with N ≥ 1, and returns N, 0 for auto.
func Parse(s string) (n int, err error) {
	if s == "auto" {
		return 0, nil
	}
	ns, ok := strings.CutPrefix(s, "auto/")
	if n, err := strconv.Atoi(ns); ok && err == nil && n >= 1 {
		return n, nil
	}
	return 0, fmt.Errorf("want %s, N at least 1", Syntax)
}

// Resolve is the shard k of n that s (auto or auto/N, as Parse reads it)
// names in the environment getenv reads; an error starts with s and names
// the variables it looked for and what they held.
func Resolve(s string, getenv func(string) string) (k, n int, err error) {
	n, err = Parse(s)
	switch {
	case err != nil:
		return 0, 0, err
	case n == 0:
		return slurm(getenv)
	}
	v := getenv(JobIndex)
	if v == "" {
		return 0, 0, fmt.Errorf("auto/%d takes the shard from a Kubernetes Indexed Job's %s, which is not set (under a Slurm array job, give auto)", n, JobIndex)
	}
	k, err = strconv.Atoi(v)
	switch {
	case err != nil || k < 0:
		return 0, 0, fmt.Errorf("auto/%d: %s=%q: want a whole number from 0", n, JobIndex, v)
	case k >= n:
		return 0, 0, fmt.Errorf("auto/%d: %s=%d is not below %d: give the Job's completions as N", n, JobIndex, k, n)
	}
	return k, n, nil
}

// slurm is the shard of a Slurm array job's task: its ID less the
// array's lowest, of the array's count.
func slurm(getenv func(string) string) (k, n int, err error) {
	names := []string{SlurmID, SlurmMin, SlurmCount}
	var vals [3]int
	var missing []string
	for i, name := range names {
		v := getenv(name)
		if v == "" {
			missing = append(missing, name)
			continue
		}
		if vals[i], err = strconv.Atoi(v); err != nil || vals[i] < 0 {
			return 0, 0, fmt.Errorf("auto: %s=%q: want a whole number from 0", name, v)
		}
	}
	switch {
	case len(missing) == len(names):
		return 0, 0, fmt.Errorf("auto takes the shard from a Slurm array job's %s, %s and %s, and none is set (under a Kubernetes Indexed Job, give auto/N, N its completions)", SlurmID, SlurmMin, SlurmCount)
	case missing != nil:
		return 0, 0, fmt.Errorf("auto takes the shard from a Slurm array job's %s, %s and %s; not set: %s", SlurmID, SlurmMin, SlurmCount, strings.Join(missing, ", "))
	}
	id, lowest, count := vals[0], vals[1], vals[2]
	k = id - lowest
	if k < 0 || k >= count {
		return 0, 0, fmt.Errorf("auto: %s=%d less %s=%d is %d, not from 0 to %s=%d less 1: auto wants an array of consecutive task IDs, such as --array=0-%d", SlurmID, id, SlurmMin, lowest, k, SlurmCount, count, max(count, 1)-1)
	}
	return k, count, nil
}
