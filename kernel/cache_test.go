package kernel

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

type result struct {
	Loss []float64
	Note string
}

func TestCacheComputesOnce(t *testing.T) {
	t.Setenv(CacheDirEnv, t.TempDir())
	calls := 0
	compute := func() (result, error) {
		calls++
		return result{Loss: []float64{2.5, 1.25}, Note: "ok"}, nil
	}
	for i := 0; i < 3; i++ {
		got, err := Cache("exp-1", compute)
		if err != nil {
			t.Fatal(err)
		}
		if len(got.Loss) != 2 || got.Loss[1] != 1.25 || got.Note != "ok" {
			t.Fatalf("Cache = %+v; want the computed value", got)
		}
	}
	if calls != 1 {
		t.Errorf("compute ran %d times; want 1", calls)
	}
	if err := Forget("exp-1"); err != nil {
		t.Fatal(err)
	}
	if _, err := Cache("exp-1", compute); err != nil || calls != 2 {
		t.Errorf("after Forget: calls = %d, err = %v; want a recomputation", calls, err)
	}
}

func TestCacheUsesGonbTmpDir(t *testing.T) {
	t.Setenv(CacheDirEnv, "")
	tmp := t.TempDir()
	t.Setenv("GONB_TMP_DIR", tmp)
	if _, err := Cache("n", func() (int, error) { return 42, nil }); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(tmp, "dlbd-cache", "n.gob")); err != nil {
		t.Errorf("value not stored under $GONB_TMP_DIR/dlbd-cache: %v", err)
	}
}

func TestCacheOutsideSessionComputesEveryTime(t *testing.T) {
	t.Setenv(CacheDirEnv, "")
	t.Setenv("GONB_TMP_DIR", "")
	calls := 0
	for i := 0; i < 2; i++ {
		if _, err := Cache("k", func() (int, error) { calls++; return 1, nil }); err != nil {
			t.Fatal(err)
		}
	}
	if calls != 2 {
		t.Errorf("compute ran %d times outside a session; want 2", calls)
	}
}

func TestCacheErrors(t *testing.T) {
	dir := t.TempDir()
	t.Setenv(CacheDirEnv, dir)
	if _, err := Cache("bad key/..", func() (int, error) { return 0, nil }); err == nil || !strings.Contains(err.Error(), "bad key") {
		t.Errorf("invalid key: err = %v; want it to name the key", err)
	}
	boom := errors.New("boom")
	if _, err := Cache("fails", func() (int, error) { return 0, boom }); !errors.Is(err, boom) {
		t.Errorf("compute error not returned: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "fails.gob")); err == nil {
		t.Error("a failed computation was stored")
	}
	if _, err := Cache("typed", func() (int, error) { return 7, nil }); err != nil {
		t.Fatal(err)
	}
	_, err := Cache("typed", func() (string, error) { return "x", nil })
	if err == nil || !strings.Contains(err.Error(), "holds a int, not a string") || !strings.Contains(err.Error(), "Forget") {
		t.Errorf("type mismatch: err = %v; want both types and the Forget fix", err)
	}
	if err := os.WriteFile(filepath.Join(dir, "corrupt.gob"), []byte("not gob"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := Cache("corrupt", func() (int, error) { return 1, nil }); err == nil || !strings.Contains(err.Error(), "unreadable") {
		t.Errorf("corrupt file: err = %v; want an unreadable-file error", err)
	}
	if _, err := Cache("chan", func() (chan int, error) { return make(chan int), nil }); err == nil || !strings.Contains(err.Error(), "cannot be stored") {
		t.Errorf("unencodable value: err = %v; want a cannot-be-stored error", err)
	}
}

func TestMust(t *testing.T) {
	if Must(3, nil) != 3 {
		t.Error("Must(3, nil) != 3")
	}
	defer func() {
		if r := recover(); r == nil {
			t.Error("Must with an error did not panic")
		}
	}()
	Must(0, errors.New("x"))
}
