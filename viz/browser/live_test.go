package browser

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

// TestLiveJupyterLab starts JupyterLab from the repository's .venv on
// loopback, opens testdata/live.ipynb in headless Chromium, runs all cells on
// the dlbd kernel and checks with live/live.mjs that its two charts draw
// although no cell calls viz.Init, that no chart ever shows the
// untrusted-notebook message (only right where a chart's script does not
// run), that the notebook model does not hold the ECharts library (under
// 200 KB), and that the progress bar appears while the cells run and is
// finished at the end. Then it saves and reloads the page, which loses the
// library: the charts must say so, and running the last chart cell again
// must draw both. $DLBD_LIVE_NOTEBOOK names another notebook (with at least
// one chart and one progress bar; the reload check is then skipped).
//
// It needs `make kernel` (kernelspec, .venv), node and chromium; it
// installs playwright-core into <repo>/.assets/live-test. Opt in with
// DLBD_LIVE=1; screenshots of failures go to $DLBD_SCREENSHOTS (default
// <repo>/build/screenshots).
func TestLiveJupyterLab(t *testing.T) {
	args := []string{"--charts", "2", "--progress", "1", "--reload", "1", "--timeout-ms", "180000"}
	nb := os.Getenv("DLBD_LIVE_NOTEBOOK")
	if nb == "" {
		nb = "testdata/live.ipynb"
	} else {
		args = []string{"--charts", "1", "--progress", "1", "--timeout-ms", "180000", "--max-model-bytes", "100000000"}
	}
	lab := startLab(t, nb)
	lab.run(t, "live/live.mjs", args...)
}

// liveLab is a JupyterLab server started by startLab for one test.
type liveLab struct {
	ctx      context.Context // ends when the test's time is up
	url      string          // the notebook's page, token included
	node     string          // node executable
	modules  string          // holds node_modules/playwright-core
	chromium string
	shots    string // screenshot directory
	log      string // JupyterLab's log file
}

// startLab starts JupyterLab from the repository's .venv on loopback with
// the repository's kernelspec (JUPYTER_PATH=<repo>/.jupyter) and a fresh
// configuration, serving a temporary directory that holds a copy of the
// notebook nb; the test's cleanup stops it. It skips the test unless
// DLBD_LIVE=1 and fails it when make kernel, node or chromium is missing.
func startLab(t *testing.T, nb string) *liveLab {
	t.Helper()
	if os.Getenv("DLBD_LIVE") != "1" {
		t.Skip("set DLBD_LIVE=1 to run the live JupyterLab test (needs make kernel, node, chromium)")
	}
	needBrowser(t)
	repo, _ := filepath.Abs("../..")
	jupyter := filepath.Join(repo, ".venv", "bin", "jupyter")
	for _, need := range []string{jupyter, filepath.Join(repo, ".jupyter", "kernels", "dlbd", "kernel.json")} {
		if _, err := os.Stat(need); err != nil {
			t.Fatalf("%s missing: run make kernel", need)
		}
	}
	node, err := exec.LookPath("node")
	if err != nil {
		t.Fatal("node not found (Debian: apt-get install nodejs)")
	}
	modules := filepath.Join(repo, ".assets", "live-test")
	if out, err := exec.Command("live/install.sh", modules).CombinedOutput(); err != nil {
		t.Fatalf("live/install.sh: %v\n%s", err, out)
	}
	root := t.TempDir()
	data, err := os.ReadFile(nb)
	if err != nil {
		t.Fatal(err)
	}
	name := filepath.Base(nb)
	if err := os.WriteFile(filepath.Join(root, name), data, 0o644); err != nil {
		t.Fatal(err)
	}
	port := freePort(t)
	var tok [16]byte
	rand.Read(tok[:])
	token := hex.EncodeToString(tok[:])

	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	t.Cleanup(cancel)
	lab := exec.CommandContext(ctx, jupyter, "lab", "--no-browser", "--ServerApp.ip=127.0.0.1",
		fmt.Sprintf("--ServerApp.port=%d", port), "--IdentityProvider.token="+token,
		"--LabApp.expose_app_in_browser=True", "--ServerApp.root_dir="+root)
	if os.Geteuid() == 0 {
		lab.Args = append(lab.Args, "--allow-root") // containers and CI often run as root
	}
	cfg := t.TempDir()
	lab.Env = append(os.Environ(), "JUPYTER_PATH="+filepath.Join(repo, ".jupyter"),
		"JUPYTER_CONFIG_DIR="+filepath.Join(cfg, "config"), "JUPYTER_RUNTIME_DIR="+filepath.Join(cfg, "runtime"),
		"JUPYTERLAB_SETTINGS_DIR="+filepath.Join(cfg, "settings"), "JUPYTERLAB_WORKSPACES_DIR="+filepath.Join(cfg, "workspaces"))
	logf, _ := os.Create(filepath.Join(cfg, "jupyter.log"))
	lab.Stdout, lab.Stderr = logf, logf
	if err := lab.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { // JupyterLab exits when interrupted; then wait for it.
		lab.Process.Signal(os.Interrupt)
		done := make(chan struct{})
		go func() { lab.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			lab.Process.Kill()
		}
	})
	base := fmt.Sprintf("http://127.0.0.1:%d", port)
	if err := waitHTTP(base+"/api/status?token="+token, 60*time.Second); err != nil {
		log, _ := os.ReadFile(logf.Name())
		t.Fatalf("JupyterLab did not start: %v\n%s", err, tail(string(log), 2000))
	}
	shots := os.Getenv("DLBD_SCREENSHOTS")
	if shots == "" {
		shots = filepath.Join(repo, "build", "screenshots")
	}
	chrome, _ := Chromium(Options{})
	return &liveLab{ctx: ctx, url: base + "/lab/tree/" + url.PathEscape(name) + "?token=" + token, node: node, modules: modules,
		chromium: chrome, shots: shots, log: logf.Name()}
}

// run runs a live/*.mjs check of the notebook's page (the script gets
// --modules, --chromium, --url and --screenshots, then args), logs its
// report and fails the test, with the tail of JupyterLab's log, when the
// script fails.
func (l *liveLab) run(t *testing.T, script string, args ...string) {
	t.Helper()
	cmd := exec.CommandContext(l.ctx, l.node, append([]string{script, "--modules", l.modules, "--chromium", l.chromium,
		"--url", l.url, "--screenshots", l.shots}, args...)...)
	out, err := cmd.CombinedOutput()
	t.Logf("%s report:\n%s", filepath.Base(script), out)
	if err != nil {
		log, _ := os.ReadFile(l.log)
		t.Fatalf("live check failed: %v\nJupyterLab log (tail):\n%s", err, tail(string(log), 3000))
	}
}

func freePort(t *testing.T) int {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

func waitHTTP(url string, limit time.Duration) error {
	deadline := time.Now().Add(limit)
	for {
		resp, err := http.Get(url)
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return nil
			}
			err = fmt.Errorf("status %s", resp.Status)
		}
		if time.Now().After(deadline) {
			return err
		}
		time.Sleep(300 * time.Millisecond)
	}
}
