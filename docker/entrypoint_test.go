package docker_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// fakeImage lays out a repository like /opt/dlbd in the image, with the real .venv (for the
// token and password hashing) and the given notebooks.
func fakeImage(t *testing.T, notebooks map[string]string) (repoDir, work string) {
	t.Helper()
	venv, err := filepath.Abs(filepath.Join(repo, ".venv"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(venv, "bin", "python")); err != nil {
		requireTool(t, filepath.Join(venv, "bin", "python"))
	}
	root := t.TempDir()
	repoDir = filepath.Join(root, "opt-dlbd")
	if err := os.MkdirAll(filepath.Join(repoDir, "notebooks"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(venv, filepath.Join(repoDir, ".venv")); err != nil {
		t.Fatal(err)
	}
	ship(t, repoDir, notebooks)
	return repoDir, filepath.Join(root, "work")
}

func ship(t *testing.T, repoDir string, notebooks map[string]string) {
	t.Helper()
	for name, body := range notebooks {
		if err := os.WriteFile(filepath.Join(repoDir, "notebooks", name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func runEntrypoint(t *testing.T, repoDir, work string, env ...string) string {
	t.Helper()
	cmd := exec.Command("bash", "entrypoint.sh")
	cmd.Env = append(os.Environ(), append([]string{"DLBD_REPO=" + repoDir, "DLBD_WORK=" + work, "DLBD_DRY_RUN=1",
		"JUPYTER_TOKEN=", "JUPYTER_PASSWORD=", "JUPYTER_PASSWORD_HASH="}, env...)...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("entrypoint.sh: %v\n%s", err, out)
	}
	return string(out)
}

func read(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestEntrypointSyncsNotebooksWithoutLosingEdits(t *testing.T) {
	repoDir, work := fakeImage(t, map[string]string{"00-a.ipynb": "a v1", "01-b.ipynb": "b v1"})
	runEntrypoint(t, repoDir, work)
	course := filepath.Join(work, "curso")
	if read(t, filepath.Join(course, "00-a.ipynb")) != "a v1" || read(t, filepath.Join(course, "01-b.ipynb")) != "b v1" {
		t.Fatal("first start did not copy the notebooks into the volume")
	}
	// The student edits 00-a; a new image ships new versions of both.
	if err := os.WriteFile(filepath.Join(course, "00-a.ipynb"), []byte("a edited by student"), 0o644); err != nil {
		t.Fatal(err)
	}
	ship(t, repoDir, map[string]string{"00-a.ipynb": "a v2", "01-b.ipynb": "b v2", "02-c.ipynb": "c v1"})
	out := runEntrypoint(t, repoDir, work)
	if got := read(t, filepath.Join(course, "00-a.ipynb")); got != "a edited by student" {
		t.Errorf("student's edit overwritten: %q", got)
	}
	if got := read(t, filepath.Join(course, "00-a.nuevo.ipynb")); got != "a v2" {
		t.Errorf("new version of an edited notebook = %q; want it beside the student's as .nuevo", got)
	}
	if !strings.Contains(out, "00-a.nuevo.ipynb") {
		t.Errorf("entrypoint did not tell about the .nuevo copy:\n%s", out)
	}
	if got := read(t, filepath.Join(course, "01-b.ipynb")); got != "b v2" {
		t.Errorf("unchanged notebook not updated: %q", got)
	}
	if got := read(t, filepath.Join(course, "02-c.ipynb")); got != "c v1" {
		t.Errorf("new notebook not copied: %q", got)
	}
}

func TestEntrypointAuth(t *testing.T) {
	repoDir, work := fakeImage(t, map[string]string{"00-a.ipynb": "x"})
	out := runEntrypoint(t, repoDir, work, "JUPYTER_TOKEN=s3cret")
	for _, want := range []string{"--ip=0.0.0.0", "--port=8888", "--IdentityProvider.token=s3cret", "token=s3cret", "--ServerApp.root_dir=" + work} {
		if !strings.Contains(out, want) {
			t.Errorf("token mode: output lacks %q:\n%s", want, out)
		}
	}
	out = runEntrypoint(t, repoDir, work)
	if !strings.Contains(out, "--IdentityProvider.token=") || strings.Contains(out, "--IdentityProvider.token= ") {
		t.Errorf("default mode must generate a token:\n%s", out)
	}
	out = runEntrypoint(t, repoDir, work, "JUPYTER_PASSWORD=clase")
	if !strings.Contains(out, "--PasswordIdentityProvider.hashed_password=argon2:") || strings.Contains(out, "clase") {
		t.Errorf("password mode must pass a hash and never the plain password:\n%s", out)
	}
	cmd := exec.Command("bash", "entrypoint.sh")
	cmd.Env = append(os.Environ(), "DLBD_REPO="+repoDir, "DLBD_WORK="+work, "DLBD_DRY_RUN=1", "DLBD_UI=classic")
	if out, err := cmd.CombinedOutput(); err == nil || !strings.Contains(string(out), "lab or notebook") {
		t.Errorf("DLBD_UI=classic: err = %v, output %q; want a clear refusal", err, out)
	}
}
