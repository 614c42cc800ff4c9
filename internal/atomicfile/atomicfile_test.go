package atomicfile

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

func writeString(s string) func(w *bufio.Writer) error {
	return func(w *bufio.Writer) error { _, err := w.WriteString(s); return err }
}

// entries lists dir's names, sorted.
func entries(t *testing.T, dir string) string {
	t.Helper()
	es, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range es {
		names = append(names, e.Name())
	}
	return strings.Join(names, " ")
}

func read(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestCheck(t *testing.T) {
	dir := t.TempDir()
	os.Mkdir(filepath.Join(dir, "adir"), 0o755)
	os.Symlink("adir", filepath.Join(dir, "dirlink"))
	tests := []struct {
		path, wantErr string
	}{
		{"", "want a file name, not an empty one"},
		{filepath.Join(dir, "adir"), "a folder: want a file name"},
		{filepath.Join(dir, "new") + "/", "a folder name (it ends in a slash): want a file name"},
		{filepath.Join(dir, "dirlink"), "a folder: want a file name"},
		{filepath.Join(dir, "missing", "x.csv"), "missing does not exist"},
		{dir + "/missing/../x.csv", "missing/.. does not exist"}, // the kernel needs missing, though Clean drops it
		{filepath.Join(dir, "new.csv"), ""},
		{"/dev/null", ""},
	}
	for _, tt := range tests {
		err := Check(tt.path)
		if (err == nil) != (tt.wantErr == "") || err != nil && !strings.Contains(err.Error(), tt.wantErr) {
			t.Errorf("Check(%q) = %v, want %q", tt.path, err, tt.wantErr)
		}
	}
	if got := entries(t, dir); got != "adir dirlink" {
		t.Errorf("Check left %q", got)
	}
}

func TestWriteRegular(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "out.csv")
	if err := Write(path, writeString("one\n")); err != nil {
		t.Fatal(err)
	}
	if err := Write(path, writeString("two\n")); err != nil {
		t.Fatal(err)
	}
	if got := read(t, path); got != "two\n" {
		t.Errorf("content %q", got)
	}
	// A failing write leaves the old content and no temporary file.
	boom := errors.New("boom")
	err := Write(path, func(w *bufio.Writer) error { w.WriteString("half"); return boom })
	if !errors.Is(err, boom) || read(t, path) != "two\n" || entries(t, dir) != "out.csv" {
		t.Errorf("after a failed write: %v, %q, folder %q", err, read(t, path), entries(t, dir))
	}
	// A folder, a folder name and an empty name are refused before write runs.
	for _, bad := range []string{dir, path + "/", ""} {
		called := false
		err := Write(bad, func(*bufio.Writer) error { called = true; return nil })
		if err == nil || called {
			t.Errorf("Write(%q): %v, write called %t", bad, err, called)
		}
	}
	if got := entries(t, dir); got != "out.csv" {
		t.Errorf("folder holds %q", got)
	}
}

// TestWriteFollowsSymlinks: the link stays a link and its target gets the
// content, replaced atomically in the target's own folder; a dangling link
// creates its target.
func TestWriteFollowsSymlinks(t *testing.T) {
	dir := t.TempDir()
	os.Mkdir(filepath.Join(dir, "data"), 0o755)
	os.WriteFile(filepath.Join(dir, "data", "real.csv"), []byte("old\n"), 0o644)
	os.Symlink(filepath.Join("data", "real.csv"), filepath.Join(dir, "link.csv"))
	os.Symlink("link.csv", filepath.Join(dir, "link2.csv"))
	os.Symlink(filepath.Join("data", "new.csv"), filepath.Join(dir, "dangling.csv"))
	for _, name := range []string{"link.csv", "link2.csv", "dangling.csv"} {
		if err := Write(filepath.Join(dir, name), writeString(name+"\n")); err != nil {
			t.Fatal(err)
		}
		fi, err := os.Lstat(filepath.Join(dir, name))
		if err != nil || fi.Mode()&os.ModeSymlink == 0 {
			t.Errorf("%s is no longer a symbolic link", name)
		}
		if got := read(t, filepath.Join(dir, name)); got != name+"\n" {
			t.Errorf("through %s: %q", name, got)
		}
	}
	if got := entries(t, filepath.Join(dir, "data")); got != "new.csv real.csv" {
		t.Errorf("data holds %q", got)
	}
	os.Symlink("loop", filepath.Join(dir, "loop"))
	if err := Write(filepath.Join(dir, "loop"), writeString("x")); err == nil || !strings.Contains(err.Error(), "symbolic links") {
		t.Errorf("a link loop: %v", err)
	}
}

// TestWriteStreamsToFIFO: a FIFO is written to, not replaced: its reader
// gets the content and the FIFO is still there.
func TestWriteStreamsToFIFO(t *testing.T) {
	path := filepath.Join(t.TempDir(), "fifo")
	if err := syscall.Mkfifo(path, 0o644); err != nil {
		t.Fatal(err)
	}
	got := make(chan string)
	go func() {
		f, err := os.Open(path)
		if err != nil {
			got <- err.Error()
			return
		}
		b, _ := io.ReadAll(f)
		f.Close()
		got <- string(b)
	}()
	want := strings.Repeat("row\n", 50_000) // more than a pipe holds
	if err := Write(path, writeString(want)); err != nil {
		t.Fatal(err)
	}
	if s := <-got; s != want {
		t.Errorf("the reader got %d bytes, want %d", len(s), len(want))
	}
	fi, err := os.Lstat(path)
	if err != nil || fi.Mode()&os.ModeNamedPipe == 0 {
		t.Errorf("the FIFO was replaced: %v, %v", fi.Mode(), err)
	}
}

// TestWriteToDevices: /dev/null is written to, not replaced; /dev/full
// fails with its error.
func TestWriteToDevices(t *testing.T) {
	if err := Write("/dev/null", writeString("x")); err != nil {
		t.Error(err)
	}
	if fi, err := os.Lstat("/dev/null"); err != nil || fi.Mode()&os.ModeCharDevice == 0 {
		t.Fatalf("/dev/null is no longer a device: %v", err)
	}
	if err := Write("/dev/full", writeString("x")); !errors.Is(err, syscall.ENOSPC) {
		t.Errorf("/dev/full: %v", err)
	}
	// A link to a device (as /dev/stdout is) is written through, and stays.
	link := filepath.Join(t.TempDir(), "out")
	os.Symlink("/dev/null", link)
	if err := Write(link, writeString("x")); err != nil {
		t.Error(err)
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Errorf("the link to /dev/null was replaced: %v", err)
	}
}

func reportFiles(names ...string) []File {
	var files []File
	for _, n := range names {
		files = append(files, File{n, func(w io.Writer) error { _, err := io.WriteString(w, "new "+n); return err }})
	}
	return files
}

func TestWriteDir(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "report")
	if err := WriteDir(context.Background(), dir, reportFiles("a.md", "b.csv"), nil); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("mine"), 0o644)
	if err := WriteDir(context.Background(), dir, reportFiles("a.md", "b.csv", "c.png"), nil); err != nil {
		t.Fatal(err)
	}
	if got := entries(t, dir); got != "a.md b.csv c.png notes.txt" {
		t.Errorf("folder holds %q", got)
	}
	if read(t, filepath.Join(dir, "c.png")) != "new c.png" || read(t, filepath.Join(dir, "notes.txt")) != "mine" {
		t.Error("wrong content")
	}
}

// TestWriteDirAllOrNothing: a failing file, a cancelled context or a
// folder in a file's place leave the folder as it was.
func TestWriteDirAllOrNothing(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "a.md"), []byte("old a"), 0o644)
	os.Mkdir(filepath.Join(dir, "c.png"), 0o755)
	os.WriteFile(filepath.Join(dir, "c.png", "x"), nil, 0o644)
	boom := errors.New("boom")
	failing := append(reportFiles("a.md"), File{"b.csv", func(io.Writer) error { return boom }})
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	for _, tt := range []struct {
		ctx   context.Context
		files []File
		want  string
	}{
		{context.Background(), failing, "boom"},
		{cancelled, reportFiles("a.md"), "canceled"},
		{context.Background(), reportFiles("a.md", "b.csv", "c.png"), "c.png is a folder"},
	} {
		err := WriteDir(tt.ctx, dir, tt.files, nil)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("error %v, want %q", err, tt.want)
		}
		if got := entries(t, dir); got != "a.md c.png" || read(t, filepath.Join(dir, "a.md")) != "old a" {
			t.Errorf("folder holds %q, a.md %q", got, read(t, filepath.Join(dir, "a.md")))
		}
	}
}

// TestReplaceUndoes: when the k-th move fails, the moves before it are
// undone: replaced files get their old content back, new ones go.
func TestReplaceUndoes(t *testing.T) {
	names := []string{"a", "b", "c", "d"}
	for k := range names {
		dir := t.TempDir()
		tmp := filepath.Join(dir, ".leasesim-staging")
		os.Mkdir(tmp, 0o755)
		for _, n := range names {
			os.WriteFile(filepath.Join(tmp, n), []byte("new"), 0o644)
		}
		os.WriteFile(filepath.Join(dir, "b"), []byte("old b"), 0o644)
		os.WriteFile(filepath.Join(dir, "d"), []byte("old d"), 0o644)
		moves := 0
		err := replace(dir, tmp, names, func(from, to string) error {
			if moves == k {
				return fmt.Errorf("move %d fails", k)
			}
			moves++
			return os.Rename(from, to)
		}, nil)
		if err == nil {
			t.Fatalf("k=%d: no error", k)
		}
		os.RemoveAll(tmp)
		if got := entries(t, dir); got != "b d" || read(t, filepath.Join(dir, "b")) != "old b" || read(t, filepath.Join(dir, "d")) != "old d" {
			t.Errorf("k=%d: folder holds %q, b %q", k, got, read(t, filepath.Join(dir, "b")))
		}
	}
}

// TestStaleStagingRemoved: a staging folder of a dead process (its name
// in WriteDir's pattern, its marker inside, or empty) is removed by the
// next WriteDir; one of a live process is left alone, and so is anything a
// user named alike: a folder without the marker, a name outside the
// pattern, a link, a file.
func TestStaleStagingRemoved(t *testing.T) {
	elsewhere := t.TempDir()
	os.WriteFile(filepath.Join(elsewhere, markerName), []byte(markerContent), 0o644)
	os.WriteFile(filepath.Join(elsewhere, "keep"), nil, 0o644)
	const dead = "999999999" // above Linux's largest process id
	live := fmt.Sprintf(".leasesim-%d-456", os.Getppid())
	tests := []struct {
		name  string
		make  func(path string)
		stays bool
	}{
		{".leasesim-" + dead + "-123", stagingFolder, false},
		{".leasesim-" + dead + "-124", func(path string) { os.Mkdir(path, 0o755) }, false},
		{live, stagingFolder, true},
		{".leasesim-" + dead + "-125", userFolder, true},        // no marker
		{".leasesim-2024-backup", userFolder, true},             // the case
		{".leasesim-2024-backup", stagingFolder, true},          // a marker, but not the pattern
		{".leasesim-" + dead + "-126-old", stagingFolder, true}, // a longer name
		{".leasesim-0" + dead + "-127", stagingFolder, true},    // a leading zero
		{".leasesim-" + dead + "-128", func(path string) { os.Symlink(elsewhere, path) }, true},
		{".leasesim-" + dead + "-129", func(path string) { os.WriteFile(path, []byte("mine"), 0o644) }, true},
		{".leasesim-" + dead + "-130", func(path string) { // a marker of other words
			userFolder(path)
			os.WriteFile(filepath.Join(path, markerName), []byte("mine"), 0o644)
		}, true},
	}
	for _, tt := range tests {
		sub := t.TempDir()
		tt.make(filepath.Join(sub, tt.name))
		if err := WriteDir(context.Background(), sub, reportFiles("a.md"), nil); err != nil {
			t.Fatal(err)
		}
		want := "a.md"
		if tt.stays {
			want = tt.name + " a.md"
		}
		if got := entries(t, sub); got != want {
			t.Errorf("%s: folder holds %q, want %q", tt.name, got, want)
		}
		if tt.stays {
			if _, err := os.Lstat(filepath.Join(sub, tt.name)); err != nil {
				t.Errorf("%s: %v", tt.name, err)
			}
		}
	}
	if got := entries(t, elsewhere); got != markerName+" keep" {
		t.Errorf("a link's target holds %q", got)
	}
}

// stagingFolder makes a staging folder as WriteDir does, with a file in it.
func stagingFolder(path string) {
	os.MkdirAll(filepath.Join(path, "old"), 0o755)
	os.WriteFile(filepath.Join(path, markerName), []byte(markerContent), 0o644)
	os.WriteFile(filepath.Join(path, "a.md"), []byte("half"), 0o644)
}

// userFolder makes a folder of a user's own files.
func userFolder(path string) {
	os.MkdirAll(filepath.Join(path, "data"), 0o755)
	os.WriteFile(filepath.Join(path, "data", "invoices.csv"), []byte("precious"), 0o644)
}

// TestPrepare: a prepared file is not in place until Commit; Discard
// leaves the old content and no temporary file.
func TestPrepare(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "x.png")
	os.WriteFile(path, []byte("old"), 0o644)
	p, err := Prepare(path, writeString("new"))
	if err != nil {
		t.Fatal(err)
	}
	if read(t, path) != "old" {
		t.Error("Prepare put the file in place")
	}
	p.Discard()
	if got := entries(t, dir); got != "x.png" || read(t, path) != "old" {
		t.Errorf("after Discard: folder %q, content %q", got, read(t, path))
	}
	p, err = Prepare(path, writeString("new"))
	if err == nil {
		err = p.Commit()
	}
	p.Discard() // after Commit: nothing to do
	if err != nil || entries(t, dir) != "x.png" || read(t, path) != "new" {
		t.Errorf("after Commit: %v, folder %q, content %q", err, entries(t, dir), read(t, path))
	}
}

// TestWriteDirThenFails: when what runs once the files are in place fails,
// the folder is put back as it was.
func TestWriteDirThenFails(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "a.md"), []byte("old a"), 0o644)
	boom := errors.New("boom")
	ran := false
	err := WriteDir(context.Background(), dir, reportFiles("a.md", "b.csv"), func() error {
		ran = true
		if read(t, filepath.Join(dir, "b.csv")) != "new b.csv" {
			t.Error("then ran before the files were in place")
		}
		return boom
	})
	if !errors.Is(err, boom) || !ran {
		t.Errorf("error %v, then ran %t", err, ran)
	}
	if got := entries(t, dir); got != "a.md" || read(t, filepath.Join(dir, "a.md")) != "old a" {
		t.Errorf("folder holds %q, a.md %q", got, read(t, filepath.Join(dir, "a.md")))
	}
}

// TestAbandon: Abandon removes the temporary file and the staging folder
// of writes under way, and the folders made for them, and every write after it fails, leaving its target
// as it was.
func TestAbandon(t *testing.T) {
	t.Cleanup(func() { temps.abandoned = false })
	dir := t.TempDir()
	path := filepath.Join(dir, "x.png")
	p, err := Prepare(path, writeString("new"))
	if err != nil {
		t.Fatal(err)
	}
	staging := make(chan error)
	abandoned := make(chan error)
	go func() {
		abandoned <- WriteDir(context.Background(), filepath.Join(dir, "report"), []File{{"a.md", func(io.Writer) error {
			staging <- nil
			<-staging // held while Abandon runs
			return nil
		}}}, nil)
	}()
	<-staging
	if got := entries(t, filepath.Join(dir, "report")); !strings.HasPrefix(got, ".leasesim-") {
		t.Fatalf("no staging folder: %q", got)
	}
	Abandon()
	staging <- nil
	if err := <-abandoned; err == nil {
		t.Error("WriteDir succeeded after Abandon")
	}
	if err := p.Commit(); !errors.Is(err, errAbandoned) {
		t.Errorf("Commit after Abandon: %v", err)
	}
	if err := Write(path, writeString("new")); !errors.Is(err, errAbandoned) {
		t.Errorf("Write after Abandon: %v", err)
	}
	if got := entries(t, dir); got != "" {
		t.Errorf("folder holds %q, want nothing: not the report folder WriteDir made", got)
	}
}

// TestWriteNamesOnlyItsFile: an error of the file is named after it; one
// of another output the write function writes (standard output) is not.
func TestWriteNamesOnlyItsFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "m.csv")
	stdout := errors.New("write /dev/stdout: no space left on device")
	err := Write(path, func(*bufio.Writer) error { return stdout })
	if err != stdout {
		t.Errorf("another output's error: %v", err)
	}
	if err := Write("/dev/full", writeString("x")); err == nil || !strings.HasPrefix(err.Error(), "writing /dev/full: ") {
		t.Errorf("the file's error: %v", err)
	}
}

// TestWriteDirRemovesFoldersItMade: a WriteDir that fails (a file, or
// what runs once they are in place) removes the folders it created for
// its folder, and only those; one that succeeds keeps them.
func TestWriteDirRemovesFoldersItMade(t *testing.T) {
	boom := errors.New("boom")
	for _, tt := range []struct {
		name  string
		files []File
		then  func() error
	}{
		{"a file fails", append(reportFiles("a.md"), File{"b.csv", func(io.Writer) error { return boom }}), nil},
		{"then fails", reportFiles("a.md"), func() error { return boom }},
	} {
		root := t.TempDir()
		os.Mkdir(filepath.Join(root, "old"), 0o755)
		err := WriteDir(context.Background(), filepath.Join(root, "old", "new", "a", "b"), tt.files, tt.then)
		if !errors.Is(err, boom) {
			t.Errorf("%s: error %v", tt.name, err)
		}
		if got := entries(t, root); got != "old" {
			t.Errorf("%s: %s holds %q, want old", tt.name, root, got)
		}
		if got := entries(t, filepath.Join(root, "old")); got != "" {
			t.Errorf("%s: old holds %q, want nothing: the folders WriteDir made are to go", tt.name, got)
		}
	}
	root := t.TempDir()
	dir := filepath.Join(root, "new", "a")
	if err := WriteDir(context.Background(), dir, reportFiles("a.md"), nil); err != nil {
		t.Fatal(err)
	}
	if got := entries(t, dir); got != "a.md" {
		t.Errorf("%s holds %q", dir, got)
	}
}

// TestSpool: Spool passes on what write wrote, in memory or through a
// temporary file it leaves nowhere, and nothing when write fails.
func TestSpool(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	for _, n := range []int{0, 10, spoolMemory + 1, 3 * spoolMemory} {
		want := strings.Repeat("x", n)
		var got strings.Builder
		if err := Spool(&got, writeString(want)); err != nil || got.String() != want {
			t.Errorf("%d bytes: got %d bytes, %v", n, got.Len(), err)
		}
		got.Reset()
		bad := errors.New("the input is bad")
		err := Spool(&got, func(w *bufio.Writer) error {
			writeString(want)(w)
			return bad
		})
		if err != bad || got.Len() != 0 {
			t.Errorf("%d bytes, then an error: got %d bytes, %v", n, got.Len(), err)
		}
		if e := entries(t, tmp); e != "" {
			t.Errorf("%d bytes: left %s in the temporary folder", n, e)
		}
	}
}
