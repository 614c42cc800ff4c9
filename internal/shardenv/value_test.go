package shardenv

import "testing"

// TestValue reads K/N at Set and auto or auto/N at ResolveAuto, from the
// environment, writing back what it was given until then.
func TestValue(t *testing.T) {
	env := map[string]string{"JOB_COMPLETION_INDEX": "3"}
	for _, c := range []struct {
		set          string
		shown        string // String before ResolveAuto
		k, n         int
		setErr, rErr bool
	}{
		{"2/4", "2/4", 2, 4, false, false},
		{"auto/8", "auto/8", 3, 8, false, false},
		{"auto", "auto", 0, 0, false, true}, // no Slurm variables
		{"auto/0", "", 0, 0, true, false},
		{"4/4", "", 0, 0, true, false},
	} {
		k, n := 0, 1
		v := NewValue(&k, &n)
		err := v.Set(c.set)
		if (err != nil) != c.setErr {
			t.Errorf("Set(%q) = %v, want error %v", c.set, err, c.setErr)
		}
		if err != nil {
			continue
		}
		if v.String() != c.shown {
			t.Errorf("Set(%q) shows %q, want %q", c.set, v, c.shown)
		}
		err = v.ResolveAuto(func(name string) string { return env[name] })
		if (err != nil) != c.rErr {
			t.Errorf("%q ResolveAuto = %v, want error %v", c.set, err, c.rErr)
		}
		if err == nil && (k != c.k || n != c.n) {
			t.Errorf("%q gives %d/%d, want %d/%d", c.set, k, n, c.k, c.n)
		}
	}
}
