package checkout

import (
	"os"
	"path/filepath"
	"testing"
)

// fakeCheckout returns a temporary directory holding this module's go.mod.
func fakeCheckout(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module "+ModulePath+"\n\ngo 1.26\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

func TestFind(t *testing.T) {
	repo := fakeCheckout(t)
	sub := filepath.Join(repo, "a", "b")
	if err := os.MkdirAll(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	got, err := Find(sub)
	if err != nil || got != repo {
		t.Fatalf("Find(%s) = %q, %v; want %q", sub, got, err, repo)
	}
	if _, err := Find(t.TempDir()); err == nil {
		t.Error("Find outside a checkout succeeded; want an error")
	}
}

func TestFindSkipsOtherModules(t *testing.T) {
	repo := fakeCheckout(t)
	other := filepath.Join(repo, "other")
	if err := os.MkdirAll(other, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(other, "go.mod"), []byte("module example.com/other\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got, err := Find(other); err != nil || got != repo {
		t.Errorf("Find(%s) = %q, %v; want %q (the go.mod of another module is not the checkout)", other, got, err, repo)
	}
}

func TestRootHonoursEnv(t *testing.T) {
	t.Setenv(EnvVar, "/somewhere/dlbd")
	if got, err := Root(); err != nil || got != "/somewhere/dlbd" {
		t.Errorf("Root() with %s set = %q, %v; want /somewhere/dlbd", EnvVar, got, err)
	}
	t.Setenv(EnvVar, "")
	want, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	if got, err := Root(); err != nil || got != want {
		t.Errorf("Root() = %q, %v; want %q (the checkout holding this package)", got, err, want)
	}
}
