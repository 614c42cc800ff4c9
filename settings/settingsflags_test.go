package settings_test

import (
	"strings"
	"testing"

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
