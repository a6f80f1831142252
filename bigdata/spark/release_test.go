package spark

import (
	"context"
	"testing"
	"time"

	"github.com/dlbd/dlbd/internal/resources"
)

// TestCloseReleasesTheSession: Close ends the session on the server (the Go client's
// Stop does not), a session left open is still there, and both are tracked as open
// resources until closed.
func TestCloseReleasesTheSession(t *testing.T) {
	s := session(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	if err := s.RegisterParquet(ctx, "nada", t.TempDir()); err == nil {
		t.Log("a view over an empty directory registered") // state on the server either way
	}
	if _, err := s.Query(ctx, "SELECT 1"); err != nil {
		t.Fatal(err)
	}
	open := session(t)
	id, openID := s.ID(), open.ID()
	if id == "" || openID == "" || id == openID {
		t.Fatalf("session ids %q and %q: want two distinct ids", id, openID)
	}
	name := "Spark Connect session on " + sharedURL
	if n := count(resources.Open(), name); n < 2 {
		t.Errorf("resources.Open() = %v; want both sessions", resources.Open())
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if existed, err := Release(ctx, sharedURL, id); err != nil || existed {
		t.Errorf("after Close, Release(%s) = %v, %v; want the server to have ended the session", id, existed, err)
	}
	if existed, err := Release(ctx, sharedURL, openID); err != nil || !existed {
		t.Errorf("Release of a session left open = %v, %v; want it found on the server", existed, err)
	}
	if err := open.Close(); err != nil { // released already: closing again is fine
		t.Errorf("Close after Release: %v", err)
	}
	if n := count(resources.Open(), name); n != 0 {
		t.Errorf("after Close, resources.Open() = %v", resources.Open())
	}
}

func count(names []string, name string) int {
	n := 0
	for _, x := range names {
		if x == name {
			n++
		}
	}
	return n
}
