package reports

import (
	"errors"
	"strings"
	"unicode"
	"unicode/utf8"
)

// CheckCurrency refuses a name of the prices' currency or unit
// (study.ReviewOptions.Currency) that report.md's table cells and
// sentences cannot hold: it takes 1 to 20 letters, digits, spaces or
// currency signs, with no space at either end.
func CheckCurrency(s string) error {
	ok := s != "" && utf8.RuneCountInString(s) <= 20 && strings.TrimSpace(s) == s
	for _, r := range s {
		ok = ok && (unicode.IsLetter(r) || unicode.IsDigit(r) || r == ' ' || unicode.Is(unicode.Sc, r))
	}
	if !ok {
		return errors.New("want a currency or unit of 1 to 20 letters, digits, spaces or currency signs, such as EUR or $")
	}
	return nil
}
