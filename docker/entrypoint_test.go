package docker_test

import (
	"encoding/json"
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
	cmd.Env = append(os.Environ(), append([]string{"DLBD_REPO=" + repoDir, "DLBD_WORK=" + work, "DLBD_DRY_RUN=1", "TMPDIR=" + t.TempDir(),
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

// jupyterLaunch splits the entry point's dry-run output into the Jupyter command line, the
// Jupyter config it passes with --config (decoded) and the JUPYTER_ variables left set.
func jupyterLaunch(t *testing.T, out string) (cmdline string, conf map[string]map[string]string, env []string) {
	t.Helper()
	for _, l := range strings.Split(out, "\n") {
		switch {
		case strings.Contains(l, "/.venv/bin/jupyter "):
			cmdline = l
		case strings.HasPrefix(l, "JUPYTER_"):
			env = append(env, l)
		}
	}
	_, rest, ok := strings.Cut(cmdline, "--config=")
	if !ok {
		t.Fatalf("no --config= on the Jupyter command line:\n%s", out)
	}
	path := strings.Fields(rest)[0]
	st, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if perm := st.Mode().Perm(); perm&0o077 != 0 {
		t.Errorf("%s has mode %v; want it readable by its owner only", path, perm)
	}
	if err := json.Unmarshal([]byte(read(t, path)), &conf); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return cmdline, conf, env
}

// TestEntrypointAuth: the token or the password's hash reaches Jupyter in a private config
// file, never on its command line (world-readable in /proc/PID/cmdline), and the variables
// that held them are not inherited by Jupyter and its kernels.
func TestEntrypointAuth(t *testing.T) {
	repoDir, work := fakeImage(t, map[string]string{"00-a.ipynb": "x"})
	secretVars := func(env []string) (set []string) {
		for _, v := range env {
			if strings.HasPrefix(v, "JUPYTER_TOKEN") || strings.HasPrefix(v, "JUPYTER_PASSWORD") {
				set = append(set, v)
			}
		}
		return set
	}

	out := runEntrypoint(t, repoDir, work, "JUPYTER_TOKEN=s3cret")
	cmdline, conf, env := jupyterLaunch(t, out)
	for _, want := range []string{"--ip=0.0.0.0", "--port=8888", "--ServerApp.root_dir=" + work} {
		if !strings.Contains(cmdline, want) {
			t.Errorf("token mode: command line lacks %q:\n%s", want, cmdline)
		}
	}
	if strings.Contains(cmdline, "s3cret") || strings.Contains(cmdline, "token") {
		t.Errorf("token mode: the token is on Jupyter's command line:\n%s", cmdline)
	}
	if got := conf["IdentityProvider"]["token"]; got != "s3cret" {
		t.Errorf("token mode: config token = %q; want s3cret", got)
	}
	if !strings.Contains(out, "?token=s3cret") {
		t.Errorf("token mode: the URL with the token is not printed:\n%s", out)
	}
	if set := secretVars(env); len(set) > 0 {
		t.Errorf("token mode: Jupyter would inherit %v", set)
	}

	_, conf, _ = jupyterLaunch(t, runEntrypoint(t, repoDir, work))
	if tok := conf["IdentityProvider"]["token"]; len(tok) < 32 {
		t.Errorf("default mode must generate a token; config token = %q", tok)
	}

	out = runEntrypoint(t, repoDir, work, "JUPYTER_PASSWORD=clase")
	cmdline, conf, env = jupyterLaunch(t, out)
	if h := conf["PasswordIdentityProvider"]["hashed_password"]; !strings.HasPrefix(h, "argon2:") {
		t.Errorf("password mode: hashed_password = %q; want an argon2 hash", h)
	}
	if tok, ok := conf["IdentityProvider"]["token"]; !ok || tok != "" {
		t.Errorf("password mode: the token must be configured empty; config %v", conf)
	}
	if strings.Contains(out, "clase") || strings.Contains(cmdline, "argon2") {
		t.Errorf("password mode: the password or its hash is in the output or on the command line:\n%s", out)
	}
	if set := secretVars(env); len(set) > 0 {
		t.Errorf("password mode: Jupyter would inherit %v", set)
	}

	_, conf, env = jupyterLaunch(t, runEntrypoint(t, repoDir, work, "JUPYTER_PASSWORD_HASH=argon2:given"))
	if h := conf["PasswordIdentityProvider"]["hashed_password"]; h != "argon2:given" {
		t.Errorf("JUPYTER_PASSWORD_HASH: hashed_password = %q; want the given hash", h)
	}
	if set := secretVars(env); len(set) > 0 {
		t.Errorf("JUPYTER_PASSWORD_HASH: Jupyter would inherit %v", set)
	}
	cmd := exec.Command("bash", "entrypoint.sh")
	cmd.Env = append(os.Environ(), "DLBD_REPO="+repoDir, "DLBD_WORK="+work, "DLBD_DRY_RUN=1", "DLBD_UI=classic")
	if out, err := cmd.CombinedOutput(); err == nil || !strings.Contains(string(out), "lab or notebook") {
		t.Errorf("DLBD_UI=classic: err = %v, output %q; want a clear refusal", err, out)
	}
}

func TestEntrypointNuevoOnlyWhenTheImageChanged(t *testing.T) {
	repoDir, work := fakeImage(t, map[string]string{"00-a.ipynb": "a v1"})
	course := filepath.Join(work, "curso")
	nuevo := filepath.Join(course, "00-a.nuevo.ipynb")
	runEntrypoint(t, repoDir, work)
	if err := os.WriteFile(filepath.Join(course, "00-a.ipynb"), []byte("a edited by student"), 0o644); err != nil {
		t.Fatal(err)
	}
	// Restarts of the same image: the student's edit stays, and no .nuevo copy appears.
	for i := range 2 {
		out := runEntrypoint(t, repoDir, work)
		if _, err := os.Stat(nuevo); err == nil || strings.Contains(out, "nuevo") {
			t.Fatalf("restart %d with the same image wrote 00-a.nuevo.ipynb (output %q); want it only when the image's copy changed", i+1, out)
		}
	}
	// An image update that changes the notebook: one .nuevo copy, then none again on restarts,
	// even after the student deleted it.
	ship(t, repoDir, map[string]string{"00-a.ipynb": "a v2"})
	runEntrypoint(t, repoDir, work)
	if got := read(t, nuevo); got != "a v2" {
		t.Fatalf("after an image update, 00-a.nuevo.ipynb = %q; want the new version", got)
	}
	if err := os.Remove(nuevo); err != nil {
		t.Fatal(err)
	}
	runEntrypoint(t, repoDir, work)
	if _, err := os.Stat(nuevo); err == nil {
		t.Error("a restart after the update wrote 00-a.nuevo.ipynb again")
	}
	if got := read(t, filepath.Join(course, "00-a.ipynb")); got != "a edited by student" {
		t.Errorf("student's edit = %q", got)
	}
}

func TestEntrypointSaysWhenTheVolumeIsNotWritable(t *testing.T) {
	repoDir, _ := fakeImage(t, map[string]string{"00-a.ipynb": "x"})
	// A path below a regular file cannot be created, not even by root (CI runs as root).
	file := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("bash", "entrypoint.sh")
	cmd.Env = append(os.Environ(), "DLBD_REPO="+repoDir, "DLBD_WORK="+filepath.Join(file, "work"), "DLBD_DRY_RUN=1")
	out, err := cmd.CombinedOutput()
	if err == nil || !strings.Contains(string(out), "cannot write to") || !strings.Contains(string(out), "chown") {
		t.Errorf("unwritable volume: err = %v, output %q; want a failure that says how to fix the owner", err, out)
	}
}

func TestEntrypointRunsAGivenCommand(t *testing.T) {
	repoDir, work := fakeImage(t, map[string]string{"00-a.ipynb": "x"})
	ca := writeTestCA(t)
	out := runEntrypoint(t, repoDir, work, "DLBD_CA_CERTS="+ca.path)
	if strings.Contains(out, "SSL_CERT_FILE") {
		t.Fatalf("no command: output %q", out)
	}
	cmd := exec.Command("bash", "entrypoint.sh", "sh", "-c", `echo "ran as command"; cat "$SSL_CERT_FILE"`)
	cmd.Env = append(os.Environ(), "DLBD_REPO="+repoDir, "DLBD_WORK="+work, "DLBD_CA_CERTS="+ca.path)
	b, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("entrypoint.sh sh -c ...: %v\n%s", err, b)
	}
	got := string(b)
	if !strings.Contains(got, "ran as command") || strings.Contains(got, "Jupyter") {
		t.Errorf("a command given to the entry point must run instead of Jupyter; output:\n%s", got)
	}
	if !strings.Contains(got, ca.pem) {
		t.Errorf("the command's SSL_CERT_FILE lacks the extra CA of DLBD_CA_CERTS")
	}
	if _, err := os.Stat(filepath.Join(work, "curso", "00-a.ipynb")); err != nil {
		t.Errorf("the course was not synced before the command: %v", err)
	}
}
