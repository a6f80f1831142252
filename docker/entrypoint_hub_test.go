package docker_test

import (
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestEntrypointUnderJupyterHub: with the hub's token in the environment (DockerSpawner) or
// the command jupyterhub-singleuser (Zero to JupyterHub), the entry point syncs the course and
// starts jupyterhub-singleuser where the spawner says, with the spawner's options last; the
// image's own token is not used. jupyterhub-singleuser without a hub is refused, saying why.
func TestEntrypointUnderJupyterHub(t *testing.T) {
	hubEnv := []string{"JUPYTERHUB_API_TOKEN=hubtoken", "JUPYTERHUB_SERVICE_URL=http://0.0.0.0:8888/user/ana/",
		"JUPYTERHUB_SERVICE_PREFIX=/user/ana/", "JUPYTERHUB_USER=ana", "JUPYTER_TOKEN=mine"}
	for _, tc := range []struct {
		name string
		args []string
	}{
		{"no command", nil},
		{"Z2JH's cmd", []string{"jupyterhub-singleuser", "--SingleUserNotebookApp.default_url=/tree"}},
		{"spawner options", []string{"--SingleUserNotebookApp.default_url=/tree"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			repoDir, work := fakeImage(t, map[string]string{"00-a.ipynb": "x"})
			cmd := exec.Command("bash", append([]string{"entrypoint.sh"}, tc.args...)...)
			cmd.Env = append(os.Environ(), append([]string{"DLBD_REPO=" + repoDir, "DLBD_WORK=" + work, "DLBD_DRY_RUN=1", "TMPDIR=" + t.TempDir()}, hubEnv...)...)
			b, err := cmd.CombinedOutput()
			if err != nil {
				t.Fatalf("entrypoint.sh %v: %v\n%s", tc.args, err, b)
			}
			out := string(b)
			var line string
			for _, l := range strings.Split(out, "\n") {
				if strings.Contains(l, "/.venv/bin/jupyterhub-singleuser ") {
					line = l
				}
			}
			if line == "" {
				t.Fatalf("no jupyterhub-singleuser command line:\n%s", out)
			}
			for _, want := range []string{"--ServerApp.root_dir=" + work, "--MappingKernelManager.default_kernel_name=dlbd"} {
				if !strings.Contains(line, want) {
					t.Errorf("jupyterhub-singleuser's command line lacks %s:\n%s", want, line)
				}
			}
			// The spawner's address (JUPYTERHUB_SERVICE_URL), not one of the image's, and no token.
			for _, bad := range []string{"--ip=", "--port=", "--config=", "mine"} {
				if strings.Contains(line, bad) {
					t.Errorf("jupyterhub-singleuser's command line has %s:\n%s", bad, line)
				}
			}
			if len(tc.args) > 0 && !strings.HasSuffix(strings.TrimSpace(line), "--SingleUserNotebookApp.default_url=/tree") {
				t.Errorf("the spawner's options must come last (they win):\n%s", line)
			}
			if strings.Contains(out, "JUPYTER_TOKEN=") {
				t.Errorf("JUPYTER_TOKEN is left for the server and its kernels:\n%s", out)
			}
			if _, err := os.Stat(filepath.Join(work, "curso", "00-a.ipynb")); err != nil {
				t.Errorf("the course was not synced before jupyterhub-singleuser: %v", err)
			}
		})
	}
	t.Run("no hub", func(t *testing.T) {
		repoDir, work := fakeImage(t, map[string]string{"00-a.ipynb": "x"})
		cmd := exec.Command("bash", "entrypoint.sh", "jupyterhub-singleuser")
		cmd.Env = append(os.Environ(), "DLBD_REPO="+repoDir, "DLBD_WORK="+work, "DLBD_DRY_RUN=1", "JUPYTERHUB_API_TOKEN=")
		b, err := cmd.CombinedOutput()
		if err == nil || !strings.Contains(string(b), "needs the hub's environment") {
			t.Errorf("jupyterhub-singleuser without a hub: %v\n%s; want a refusal naming JUPYTERHUB_API_TOKEN", err, b)
		}
	})
}

// TestHealthcheckUnderTheHubsPrefix: behind JupyterHub the HEALTHCHECK asks /user/NAME/api on
// the port of JUPYTERHUB_SERVICE_URL; standalone, /api on DLBD_PORT.
func TestHealthcheckUnderTheHubsPrefix(t *testing.T) {
	py := requireTool(t, "python3")
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/user/ana/api" && r.URL.Path != "/api" {
			http.NotFound(w, r)
		}
	}))
	defer srv.Close()
	_, port, _ := net.SplitHostPort(strings.TrimPrefix(srv.URL, "http://"))
	check := func(env ...string) error {
		cmd := exec.Command(py, "healthcheck.py")
		cmd.Env = append(os.Environ(), env...)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Logf("healthcheck %v: %s", env, out)
		}
		return err
	}
	if err := check("JUPYTERHUB_SERVICE_URL=http://0.0.0.0:"+port+"/user/ana/", "JUPYTERHUB_SERVICE_PREFIX=/user/ana/"); err != nil {
		t.Errorf("healthcheck under the prefix /user/ana/: %v; want healthy", err)
	}
	if err := check("JUPYTERHUB_SERVICE_URL=http://0.0.0.0:"+port+"/user/bob/", "JUPYTERHUB_SERVICE_PREFIX=/user/bob/"); err == nil {
		t.Error("healthcheck under a prefix the server does not serve: healthy; want unhealthy")
	}
	if err := check("JUPYTERHUB_SERVICE_URL=", "DLBD_PORT="+port); err != nil {
		t.Errorf("healthcheck standalone (DLBD_PORT): %v; want healthy", err)
	}
}
