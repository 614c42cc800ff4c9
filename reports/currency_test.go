package reports_test

import (
	"strings"
	"testing"

	"github.com/leasesim/leasesim/reports"
)

// TestCheckCurrency: a name a table cell and a sentence can hold is
// taken; an empty one, a padded one, one past 20 characters or one with
// other signs is refused saying what is wanted.
func TestCheckCurrency(t *testing.T) {
	for _, ok := range []string{"EUR", "$", "€", "price units", "CHF 2026"} {
		if err := reports.CheckCurrency(ok); err != nil {
			t.Errorf("CheckCurrency(%q) = %v", ok, err)
		}
	}
	for _, bad := range []string{"", " EUR", "EUR ", strings.Repeat("E", 21), "EUR|", "a\nb"} {
		if err := reports.CheckCurrency(bad); err == nil || !strings.HasPrefix(err.Error(), "want a currency or unit of 1 to 20") {
			t.Errorf("CheckCurrency(%q) = %v, want a refusal", bad, err)
		}
	}
}
