package stateful

import (
	"os"
	"path/filepath"
	"testing"
)

func TestWithTagsMergesIntoOneTagsFlag(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"", "-tags=noasm,dlbd_stateful"},
		{"-buildvcs=false", "-buildvcs=false -tags=noasm,dlbd_stateful"},
		{"-tags=mine,noasm -mod=readonly", "-mod=readonly -tags=mine,noasm,dlbd_stateful"},
		{"--tags=mine", "-tags=mine,noasm,dlbd_stateful"},
	} {
		if got := withTags(c.in, []string{"noasm", "dlbd_stateful"}); got != c.want {
			t.Errorf("withTags(%q) = %q; want %q", c.in, got, c.want)
		}
	}
}

func TestCopyFileIsExecutable(t *testing.T) {
	dir := t.TempDir()
	src, dst := filepath.Join(dir, "src"), filepath.Join(dir, "dst")
	if err := os.WriteFile(src, []byte("#!/bin/sh\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := copyFile(src, dst); err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(dst); err != nil || string(b) != "#!/bin/sh\n" {
		t.Fatalf("copy = %q, %v", b, err)
	}
	if st, err := os.Stat(dst); err != nil || st.Mode().Perm() != 0o755 {
		t.Errorf("copy's mode = %v, %v; want 0755", st.Mode(), err)
	}
}
