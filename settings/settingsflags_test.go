package settings_test

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/leasesim/leasesim/settings"
)

// TestWithFlags sets the options given on the row's defaults and refuses
// a value its option or the lock refuses, naming it.
func TestWithFlags(t *testing.T) {
	row, ok := settings.SettingsRowOf("etcd")
	if !ok {
		t.Fatal("no etcd row")
	}
	for _, c := range []struct {
		given []string
		texts map[string]string
		title string // a part of the lock's title, or
		err   string // of the refusal
	}{
		{nil, nil, "etcd", ""},
		{[]string{"session-ttl"}, map[string]string{"session-ttl": "30s"}, "30s", ""},
		{[]string{"session-ttl"}, map[string]string{"session-ttl": "ten"}, "", "--session-ttl ten: "},
	} {
		lock, err := row.WithFlags("etcd", 3, c.given, func(name string) string { return c.texts[name] })
		switch {
		case c.err != "" && (err == nil || !strings.HasPrefix(err.Error(), c.err)):
			t.Errorf("%v: %v, want an error beginning %q", c.texts, err, c.err)
		case c.err == "" && (err != nil || !strings.Contains(lock.Title(), c.title)):
			t.Errorf("%v: %v, %v; want a lock titled with %q", c.texts, lock, err, c.title)
		}
	}
}

// TestOptionChecks checks an option's text as its first row reads it.
func TestOptionChecks(t *testing.T) {
	for _, c := range []struct {
		check func(string) error
		text  string
		ok    bool
	}{
		{settings.SettingsOptionCheck("session-ttl"), "30s", true},
		{settings.SettingsOptionCheck("session-ttl"), "ten", false},
		{settings.LockOptionCheck("session-ttl"), "30s", true},
		{settings.LockOptionCheck("session-ttl"), "-5s", false},
	} {
		if err := c.check(c.text); (err == nil) != c.ok {
			t.Errorf("check(%q) = %v, want ok %v", c.text, err, c.ok)
		}
	}
}

// TestWithPreset takes the preset's durations where no flag gave them,
// and refuses settings client-go refuses, naming every flag's value.
func TestWithPreset(t *testing.T) {
	kube, _ := settings.PresetByName("kubernetes")
	for _, c := range []struct {
		s     settings.Settings
		given []string
		want  settings.Settings
		err   string
	}{
		{settings.Settings{Nodes: 3}, nil, settings.Settings{LeaseDuration: 15 * time.Second, RenewDeadline: 10 * time.Second, RetryPeriod: 2 * time.Second, Nodes: 3}, ""},
		{settings.Settings{LeaseDuration: 30 * time.Second, Nodes: 3}, []string{"lease"}, settings.Settings{LeaseDuration: 30 * time.Second, RenewDeadline: 10 * time.Second, RetryPeriod: 2 * time.Second, Nodes: 3}, ""},
		{settings.Settings{LeaseDuration: 5 * time.Second, Nodes: 3}, []string{"lease"}, settings.Settings{}, "--lease 5s --renew-deadline 10s --retry-period 2s --nodes 3: "},
	} {
		got, err := c.s.WithPreset(kube, func(f string) bool { return slices.Contains(c.given, f) })
		switch {
		case c.err != "" && (err == nil || !strings.HasPrefix(err.Error(), c.err)):
			t.Errorf("%+v: %v, want an error beginning %q", c.s, err, c.err)
		case c.err == "" && (err != nil || got != c.want):
			t.Errorf("%+v: %+v, %v; want %+v", c.s, got, err, c.want)
		}
	}
}
