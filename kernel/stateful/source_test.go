package stateful

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// newOverlaySession starts a session whose builds see the module's source
// through a go build overlay (initially empty), so that a test can change
// dl's source without touching the checkout; and whose source fingerprint
// is a counter the test moves.
func newOverlaySession(t *testing.T) (*testSession, func(), *atomic.Int64) {
	t.Helper()
	if testing.Short() {
		t.Skip("builds the host twice")
	}
	repo, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	overlay := filepath.Join(dir, "overlay.json")
	writeOverlay := func(replace map[string]string) {
		data, _ := json.Marshal(map[string]any{"Replace": replace})
		if err := os.WriteFile(overlay, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	writeOverlay(map[string]string{})
	env := append(os.Environ(), "GOFLAGS=-overlay="+overlay)
	var version atomic.Int64
	s, err := newSession(Options{Repo: repo, Env: env, InterruptGrace: 2 * time.Second}, func(string) string { return strings.Repeat("x", int(version.Load())+1) })
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	edit := func() { // add a file to package dl
		src := filepath.Join(dir, "marker.go")
		if err := os.WriteFile(src, []byte("package dl\n\n// OverlayMarker exists only in this test's overlay.\nvar OverlayMarker = 42\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		writeOverlay(map[string]string{filepath.Join(repo, "dl", "zz_overlay_marker.go"): src})
	}
	return &testSession{t: t, s: s}, edit, &version
}

// TestSessionSourceChangeSeen: an edit of dl that the session notices
// before the cell (its source fingerprint changed) rebuilds the host; the
// cell then sees the new source and the student is told the values are
// lost.
func TestSessionSourceChangeSeen(t *testing.T) {
	ts, edit, version := newOverlaySession(t)
	ts.ok("import \"github.com/dlbd/dlbd/dl\"\n%%\nantes := dl.CPU")
	edit()
	version.Add(1)
	res, rec := ts.run("import \"github.com/dlbd/dlbd/dl\"\n%%\nfmt.Println(dl.OverlayMarker)")
	if res.Status != "ok" || rec.stdout.String() != "42\n" {
		t.Fatalf("cell after the edit: %s %q, stdout %q, stderr %q; want 42", res.EName, res.EValue, rec.stdout.String(), rec.stderr.String())
	}
	if e := rec.stderr.String(); !strings.Contains(e, "changed") || !strings.Contains(e, "run again the cells [1]") {
		t.Errorf("stderr %q; want the change and the cells to run again", e)
	}
	if res, _ := ts.run("%%\nfmt.Println(antes)"); !strings.Contains(res.EValue, "undefined: antes") {
		t.Errorf("after the rebuild: %q; want antes gone", res.EValue)
	}
}

// TestSessionSourceChangeAtLoad: an edit the fingerprint does not show
// makes the next plugin fail to load ("plugin was built with a different
// version of package"); the session rebuilds the host and runs the cell
// again, instead of ending in that message.
func TestSessionSourceChangeAtLoad(t *testing.T) {
	ts, edit, _ := newOverlaySession(t)
	ts.ok("import \"github.com/dlbd/dlbd/dl\"\n%%\nantes := dl.CPU")
	edit()
	res, rec := ts.run("import \"github.com/dlbd/dlbd/dl\"\n%%\nfmt.Println(\"nuevo\", dl.CPU)")
	if res.Status != "ok" || rec.stdout.String() != "nuevo cpu\n" {
		t.Fatalf("cell after the edit: %s %q, stdout %q, stderr %q", res.EName, res.EValue, rec.stdout.String(), rec.stderr.String())
	}
	if e := rec.stderr.String(); !strings.Contains(e, "github.com/dlbd/dlbd/dl changed") {
		t.Errorf("stderr %q; want it to name the package that changed", e)
	}
}
