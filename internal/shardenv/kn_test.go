package shardenv

import "testing"

// TestParseKN: K/N by hand, each refusal saying what --shard takes.
func TestParseKN(t *testing.T) {
	if k, n, err := ParseKN("2/4"); k != 2 || n != 4 || err != nil {
		t.Errorf("ParseKN(2/4) = %d, %d, %v", k, n, err)
	}
	for _, bad := range []string{"4/4", "-1/4", "0/0", "2", "a/b", "auto"} {
		if _, _, err := ParseKN(bad); err == nil || err.Error() != "want K/N with 0 <= K < N, e.g. 0/4, or "+Syntax {
			t.Errorf("ParseKN(%q) = %v", bad, err)
		}
	}
}
