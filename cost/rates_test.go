package cost

import (
	"fmt"
	"strings"
	"testing"
)

func TestParseRates(t *testing.T) {
	tests := []struct {
		in      string
		want    string
		wantErr string
	}{
		{"6,12", "[6 12]", ""},
		{"0.5", "[0.5]", ""},
		{"1:2:0.25", "[1 1.25 1.5 1.75 2]", ""},
		{"0.1:0.3:0.1", "[0.1 0.2 0.3]", ""},
		{"0", "", "not a positive number"},
		{"-6", "", "not a positive number"},
		{"NaN", "", "not a positive number"},
		{"6,6", "", "duplicate value 6"},
		{"12:6", "", "is empty"},
	}
	for _, tt := range tests {
		got, err := ParseRates(tt.in)
		if tt.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("ParseRates(%q) error %v, want %q", tt.in, err, tt.wantErr)
			}
			continue
		}
		if err != nil || fmt.Sprint(got) != tt.want {
			t.Errorf("ParseRates(%q) = %v, %v; want %s", tt.in, got, err, tt.want)
		}
	}
}
