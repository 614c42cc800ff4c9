package shardenv

import (
	"strings"
	"testing"
)

func TestResolve(t *testing.T) {
	tests := []struct {
		spec string
		env  map[string]string
		k, n int
		err  string // a part of the error, "" for none
	}{
		// The two: the same shard as 3/8.
		{"auto/8", map[string]string{"JOB_COMPLETION_INDEX": "3"}, 3, 8, ""},
		{"auto", map[string]string{"SLURM_ARRAY_TASK_ID": "4", "SLURM_ARRAY_TASK_MIN": "1", "SLURM_ARRAY_TASK_COUNT": "8"}, 3, 8, ""},
		{"auto", map[string]string{"SLURM_ARRAY_TASK_ID": "0", "SLURM_ARRAY_TASK_MIN": "0", "SLURM_ARRAY_TASK_COUNT": "1"}, 0, 1, ""},
		{"auto/1", map[string]string{"JOB_COMPLETION_INDEX": "0"}, 0, 1, ""},
		// Each reads its own engine's variables, not the other's.
		{"auto/8", map[string]string{"SLURM_ARRAY_TASK_ID": "4", "SLURM_ARRAY_TASK_MIN": "1", "SLURM_ARRAY_TASK_COUNT": "8"}, 0, 0,
			"auto/8 takes the shard from a Kubernetes Indexed Job's JOB_COMPLETION_INDEX, which is not set"},
		{"auto", map[string]string{"JOB_COMPLETION_INDEX": "3"}, 0, 0,
			"auto takes the shard from a Slurm array job's SLURM_ARRAY_TASK_ID, SLURM_ARRAY_TASK_MIN and SLURM_ARRAY_TASK_COUNT, and none is set"},
		{"auto", nil, 0, 0, "and none is set (under a Kubernetes Indexed Job, give auto/N"},
		{"auto", map[string]string{"SLURM_ARRAY_TASK_ID": "4"}, 0, 0, "and SLURM_ARRAY_TASK_COUNT; not set: SLURM_ARRAY_TASK_MIN, SLURM_ARRAY_TASK_COUNT"},
		{"auto", map[string]string{"SLURM_ARRAY_TASK_ID": "x", "SLURM_ARRAY_TASK_MIN": "1", "SLURM_ARRAY_TASK_COUNT": "8"}, 0, 0, `auto: SLURM_ARRAY_TASK_ID="x": want a whole number from 0`},
		// An array with a step (--array=0-14:2) has IDs past its count.
		{"auto", map[string]string{"SLURM_ARRAY_TASK_ID": "14", "SLURM_ARRAY_TASK_MIN": "0", "SLURM_ARRAY_TASK_COUNT": "8"}, 0, 0,
			"auto: SLURM_ARRAY_TASK_ID=14 less SLURM_ARRAY_TASK_MIN=0 is 14, not from 0 to SLURM_ARRAY_TASK_COUNT=8 less 1: auto wants an array of consecutive task IDs, such as --array=0-7"},
		{"auto/8", map[string]string{"JOB_COMPLETION_INDEX": "8"}, 0, 0, "auto/8: JOB_COMPLETION_INDEX=8 is not below 8: give the Job's completions as N"},
		{"auto/8", map[string]string{"JOB_COMPLETION_INDEX": "-1"}, 0, 0, `auto/8: JOB_COMPLETION_INDEX="-1": want a whole number from 0`},
		{"auto/0", map[string]string{"JOB_COMPLETION_INDEX": "0"}, 0, 0, "want auto (a Slurm array job's task) or auto/N"},
		{"auto/", nil, 0, 0, "N at least 1"},
		{"automatic", nil, 0, 0, "want auto"},
	}
	for _, tt := range tests {
		k, n, err := Resolve(tt.spec, func(name string) string { return tt.env[name] })
		switch {
		case tt.err == "" && (err != nil || k != tt.k || n != tt.n):
			t.Errorf("Resolve(%q, %v) = %d, %d, %v; want %d, %d", tt.spec, tt.env, k, n, err, tt.k, tt.n)
		case tt.err != "" && (err == nil || !strings.Contains(err.Error(), tt.err)):
			t.Errorf("Resolve(%q, %v) = %d, %d, %v; want an error with %q", tt.spec, tt.env, k, n, err, tt.err)
		}
	}
}

func TestIsAuto(t *testing.T) {
	for s, want := range map[string]bool{"auto": true, "auto/8": true, "auto/": true, "3/8": false, "automatic": false, "": false} {
		if IsAuto(s) != want {
			t.Errorf("IsAuto(%q) = %v, want %v", s, !want, want)
		}
	}
}
