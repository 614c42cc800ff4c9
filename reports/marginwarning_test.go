package reports

import (
	"strings"
	"testing"

	"github.com/leasesim/leasesim/model"
)

// TestMarginWarning names the first setting without a two-leader margin
// and counts the others, once.
func TestMarginWarning(t *testing.T) {
	safe := model.Default()
	unsafe := model.Default()
	unsafe.Lease, unsafe.RenewDeadline, unsafe.RetryPeriod = 12, 10, 2 // a margin of 0
	if !unsafe.NoMargin() || safe.NoMargin() {
		t.Fatal("want the default safe and some lease unsafe")
	}
	names := func(i int) string { return []string{"a", "b", "c"}[i] }
	for _, c := range []struct {
		configs []model.Config
		name    func(int) string
		prefix  string
	}{
		{[]model.Config{safe, safe}, names, ""},
		{[]model.Config{safe, unsafe}, names, "b: "},
		{[]model.Config{unsafe, safe, unsafe}, names, "a (and 1 more of the 3 settings): "},
		{[]model.Config{unsafe}, func(int) string { return "" }, ""},
	} {
		got := MarginWarning(c.configs, c.name, 0)
		want := ""
		for _, cfg := range c.configs {
			if cfg.NoMargin() {
				want = c.prefix + model.Tick(0).Warnings(cfg)[0]
				break
			}
		}
		if got != want || (want != "" && !strings.HasPrefix(got, c.prefix)) {
			t.Errorf("MarginWarning = %q, want %q", got, want)
		}
	}
}
