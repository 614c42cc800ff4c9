package atomicfile

import (
	"os"
	"path/filepath"
	"testing"
)

// TestOverwrites finds an output that is an input, by another path or a
// link too, and not one that does not exist yet.
func TestOverwrites(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "inc.txt")
	other := filepath.Join(dir, "other.txt")
	link := filepath.Join(dir, "link.txt")
	for _, p := range []string{in, other} {
		if err := os.WriteFile(p, []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(in, link); err != nil {
		t.Fatal(err)
	}
	ins := []Named{{in, "INCIDENT"}}
	for _, c := range []struct {
		out   string
		found bool
	}{
		{in, true},
		{filepath.Join(dir, ".", "inc.txt"), true},
		{link, true},
		{other, false},
		{filepath.Join(dir, "new.png"), false},
	} {
		o, i, found := Overwrites([]Named{{c.out, "--png"}}, ins)
		if found != c.found || (found && (o.By != "--png" || i.By != "INCIDENT")) {
			t.Errorf("Overwrites(%s) = %v, %v, %v; want found %v", c.out, o, i, found, c.found)
		}
	}
}

// TestCheckDir takes a folder, a name of nothing yet and a link to a
// folder, and refuses an empty name, a file and a dangling link.
func TestCheckDir(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "f")
	os.WriteFile(file, nil, 0o644)
	good, dangling := filepath.Join(dir, "good"), filepath.Join(dir, "dangling")
	os.Symlink(dir, good)
	os.Symlink(filepath.Join(dir, "none"), dangling)
	for _, c := range []struct {
		path, err string
	}{
		{dir, ""},
		{filepath.Join(dir, "new"), ""},
		{good, ""},
		{"", "want a folder name"},
		{file, "a file: want a folder"},
		{dangling, "a symbolic link to " + filepath.Join(dir, "none") + ", which does not exist: want a folder, or a link to one"},
	} {
		err := CheckDir(c.path)
		if (err == nil) != (c.err == "") || (err != nil && err.Error() != c.err) {
			t.Errorf("CheckDir(%q) = %v, want %q", c.path, err, c.err)
		}
	}
}
