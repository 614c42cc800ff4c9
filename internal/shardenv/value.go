package shardenv

import "fmt"

// Value is a --shard flag's value (pflag.Value, by its methods): K/N
// (ParseKN), or auto or auto/N, which ResolveAuto reads from the
// environment once every flag is parsed.
type Value struct {
	k, n *int
	auto *string // auto or auto/N as given, until ResolveAuto reads it; "" for K/N
}

// NewValue is a --shard flag whose K and N go to k and n.
func NewValue(k, n *int) Value { return Value{k, n, new(string)} }

// String writes K/N, or auto or auto/N as given until it is resolved.
func (v Value) String() string {
	if *v.auto != "" {
		return *v.auto
	}
	return fmt.Sprintf("%d/%d", *v.k, *v.n)
}

// Set reads K/N, or checks auto or auto/N and keeps it for ResolveAuto.
func (v Value) Set(s string) error {
	if IsAuto(s) {
		if _, err := Parse(s); err != nil {
			return err
		}
		*v.auto = s
		return nil
	}
	k, n, err := ParseKN(s)
	if err != nil {
		return err
	}
	*v.k, *v.n, *v.auto = k, n, ""
	return nil
}

// Type is K/N.
func (v Value) Type() string { return "K/N" }

// ResolveAuto reads auto or auto/N, if that was given, from the
// environment getenv reads (Resolve); K/N is already read.
func (v Value) ResolveAuto(getenv func(string) string) error {
	if *v.auto == "" {
		return nil
	}
	k, n, err := Resolve(*v.auto, getenv)
	if err != nil {
		return err
	}
	*v.k, *v.n = k, n
	return nil
}

// AutoUsage says what --shard auto and auto/N read, for a flag's help.
const AutoUsage = "auto takes K and N from a Slurm array job (SLURM_ARRAY_TASK_ID less SLURM_ARRAY_TASK_MIN, of SLURM_ARRAY_TASK_COUNT), auto/N K from a Kubernetes Indexed Job (JOB_COMPLETION_INDEX)"
