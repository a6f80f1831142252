package docker_test

// Tests of a built image in a Docker engine, run by `make docker-test` (scripts/docker/test.sh),
// which builds the image and names it in DLBD_IMAGE; without it they skip. DLBD_DOCKER names the
// Docker CLI to use (default: docker on PATH).

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// engine runs one Docker CLI.
type engine struct {
	t   *testing.T
	cli string
}

func requireImage(t *testing.T, env string) (engine, string) {
	t.Helper()
	img := os.Getenv(env)
	if img == "" {
		t.Skipf("%s is not set: `make docker-test` builds the image and runs this test", env)
	}
	cli := os.Getenv("DLBD_DOCKER")
	if cli == "" {
		cli = "docker"
	}
	return engine{t, cli}, img
}

// run runs the CLI and returns its stdout; a failure fails the test with stderr.
func (e engine) run(args ...string) string {
	e.t.Helper()
	out, err := e.try(args...)
	if err != nil {
		e.t.Fatalf("%s %s: %v", e.cli, strings.Join(args, " "), err)
	}
	return out
}

// try runs the CLI and returns its stdout, or an error carrying its stderr.
func (e engine) try(args ...string) (string, error) {
	var stdout, stderr bytes.Buffer
	cmd := exec.Command(e.cli, args...)
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	cmd.Env = append(os.Environ(), "DOCKER_BUILDKIT=1")
	if err := cmd.Run(); err != nil {
		return stdout.String(), fmt.Errorf("%v\n%s", err, strings.TrimSpace(stderr.String()))
	}
	return stdout.String(), nil
}

func randomName(prefix string) string {
	b := make([]byte, 4)
	rand.Read(b)
	return prefix + hex.EncodeToString(b)
}

// container is a started container with the course volume and a token.
type container struct {
	e     engine
	name  string
	token string
	url   string // http://127.0.0.1:PORT
}

// start runs img as the README says (detached, port 8888 published — here on a free port of
// 127.0.0.1 —, the named volume on /home/student/work), with a fixed token, and waits until
// Jupyter answers /api; it returns how long that took after `docker run`.
func start(e engine, img, volume string) (*container, time.Duration) {
	e.t.Helper()
	c := &container{e: e, name: randomName("dlbd-test-"), token: randomName("tok")}
	t0 := time.Now()
	e.run("run", "-d", "--name", c.name, "-p", "127.0.0.1::8888", "-v", volume+":/home/student/work",
		"-e", "JUPYTER_TOKEN="+c.token, img)
	e.t.Cleanup(func() { e.try("rm", "-f", c.name) })
	return c, c.waitAPI(t0)
}

// waitAPI waits until /api answers 200, failing with the container's log if it exits first.
func (c *container) waitAPI(since time.Time) time.Duration {
	c.e.t.Helper()
	port := strings.TrimSpace(c.e.run("port", c.name, "8888/tcp"))
	c.url = "http://" + strings.Replace(strings.Split(port, "\n")[0], "0.0.0.0", "127.0.0.1", 1)
	for time.Since(since) < 3*time.Minute {
		if r, err := http.Get(c.url + "/api"); err == nil {
			r.Body.Close()
			if r.StatusCode == 200 {
				return time.Since(since)
			}
		}
		if state := strings.TrimSpace(c.e.run("inspect", "-f", "{{.State.Status}}", c.name)); state != "running" {
			c.e.t.Fatalf("the container is %s before Jupyter answered; its log:\n%s", state, c.logs())
		}
		time.Sleep(250 * time.Millisecond)
	}
	c.e.t.Fatalf("Jupyter did not answer %s/api within 3 minutes; log:\n%s", c.url, c.logs())
	return 0
}

// on returns c for use in the (sub)test t: its failures fail t.
func (c *container) on(t *testing.T) *container {
	c2 := *c
	c2.e.t = t
	return &c2
}

func (c *container) logs() string {
	out, _ := exec.Command(c.e.cli, "logs", c.name).CombinedOutput()
	return string(out)
}

// exec runs a command in the container as its user and returns stdout.
func (c *container) exec(args ...string) string {
	c.e.t.Helper()
	return c.e.run(append([]string{"exec", c.name}, args...)...)
}

// get returns the status of GET path, with the token as Jupyter's Authorization header if auth.
func (c *container) get(path string, auth bool) (int, string) {
	c.e.t.Helper()
	req, _ := http.NewRequest("GET", c.url+path, nil)
	if auth {
		req.Header.Set("Authorization", "token "+c.token)
	}
	r, err := http.DefaultClient.Do(req)
	if err != nil {
		c.e.t.Fatalf("GET %s: %v", path, err)
	}
	defer r.Body.Close()
	var b bytes.Buffer
	b.ReadFrom(r.Body)
	return r.StatusCode, b.String()
}

// waitHealthy waits for the HEALTHCHECK's verdict (its first probe runs 30 s after the start).
func (c *container) waitHealthy(since time.Time) time.Duration {
	c.e.t.Helper()
	for time.Since(since) < 3*time.Minute {
		switch s := strings.TrimSpace(c.e.run("inspect", "-f", "{{.State.Health.Status}}", c.name)); s {
		case "healthy":
			return time.Since(since)
		case "unhealthy":
			c.e.t.Fatalf("HEALTHCHECK says unhealthy: %s", c.e.run("inspect", "-f", "{{json .State.Health}}", c.name))
		}
		time.Sleep(time.Second)
	}
	c.e.t.Fatal("HEALTHCHECK did not turn healthy within 3 minutes")
	return 0
}

func TestImageRunsAsTheREADMESays(t *testing.T) {
	t.Parallel()
	e, img := requireImage(t, "DLBD_IMAGE")
	volume := randomName("dlbd-test-work-")
	t.Cleanup(func() { e.try("volume", "rm", "-f", volume) })
	// A new named volume: its mount point in the image decides its owner.
	c, ready := start(e, img, volume)
	t0 := time.Now().Add(-ready)
	t.Logf("Jupyter answered /api %.1f s after docker run", ready.Seconds())

	t.Run("uid", func(t *testing.T) {
		c := c.on(t)
		if got := strings.TrimSpace(c.exec("id", "-u")); got != "1000" {
			t.Errorf("docker exec id -u = %s; want 1000", got)
		}
		if got := strings.TrimSpace(c.exec("stat", "-c", "%u", "/proc/1", "/home/student/work", "/home/student/work/curso")); got != "1000\n1000\n1000" {
			t.Errorf("owner of Jupyter's process, the volume and the course = %q; want 1000 each", got)
		}
	})
	t.Run("token", func(t *testing.T) {
		c := c.on(t)
		if code, body := c.get("/api/kernelspecs", true); code != 200 || !strings.Contains(body, `"dlbd"`) {
			t.Errorf("GET /api/kernelspecs with the token = %d %.200s; want 200 listing dlbd", code, body)
		}
		if code, _ := c.get("/api/kernelspecs", false); code != 403 {
			t.Errorf("GET /api/kernelspecs without the token = %d; want 403", code)
		}
		if code, _ := c.get("/api/contents/curso", false); code != 403 {
			t.Errorf("GET /api/contents/curso without the token = %d; want 403", code)
		}
	})
	t.Run("secrets", func(t *testing.T) {
		c := c.on(t)
		// Jupyter is PID 1 (the entry point execs it). Any user can read a process's command
		// line; its environment is what every kernel and cell inherits.
		if cmdline := c.exec("sh", "-c", "tr '\\0' ' ' </proc/1/cmdline"); !strings.Contains(cmdline, "jupyter") || strings.Contains(cmdline, c.token) {
			t.Errorf("Jupyter's command line (/proc/1/cmdline) must not hold the token %q:\n%s", c.token, cmdline)
		}
		if env := c.exec("sh", "-c", "tr '\\0' '\\n' </proc/1/environ"); strings.Contains(env, "JUPYTER_TOKEN") || strings.Contains(env, c.token) {
			t.Errorf("Jupyter's environment (inherited by kernels) holds the token:\n%s", env)
		}
	})
	t.Run("path", func(t *testing.T) {
		c := c.on(t)
		// Instructors run Jupyter's and Go's commands with docker exec.
		for _, cmd := range [][]string{{"jupyter", "--version"}, {"go", "version"}, {"dlbd", "help"}, {"mpirun", "--version"}, {"java", "-version"}} {
			if _, err := c.e.try(append([]string{"exec", c.name}, cmd...)...); err != nil {
				t.Errorf("docker exec %s: %v", strings.Join(cmd, " "), err)
			}
		}
		if out := c.exec("jupyter", "kernelspec", "list"); !strings.Contains(out, "dlbd") {
			t.Errorf("jupyter kernelspec list:\n%s", out)
		}
	})
	t.Run("trimmed", func(t *testing.T) {
		c := c.on(t)
		// What students never use stays out (README, "What the image holds"): the module zips
		// (the go command builds from the extracted modules), Go's own tests, git with Perl.
		out := c.exec("sh", "-c", `find /opt/go/pkg/mod/cache/download -name '*.zip' | head -3
for p in /usr/local/go/test /usr/local/go/api /usr/bin/git; do [ ! -e $p ] || echo $p; done`)
		if strings.TrimSpace(out) != "" {
			t.Errorf("the image holds what students do not need:\n%s", out)
		}
	})
	t.Run("first-cell", func(t *testing.T) {
		c := c.on(t)
		// dlbd doctor starts a kernel as Jupyter does and times its cells: the first one of a
		// session includes linking the session's host program.
		out, err := c.e.try("exec", c.name, "dlbd", "doctor", "-runs", "3")
		if err != nil {
			t.Fatalf("dlbd doctor in the container: %v\n%s", err, out)
		}
		for _, l := range strings.Split(out, "\n") {
			if strings.Contains(l, "first run") {
				t.Log("doctor: " + strings.TrimSpace(l))
			}
		}
	})
	t.Run("healthy", func(t *testing.T) {
		c := c.on(t)
		t.Logf("healthy %.0f s after docker run", c.waitHealthy(t0).Seconds())
	})
	t.Run("restart-and-update", func(t *testing.T) {
		e := engine{t, e.cli}
		testRestartAndUpdate(t, e, img, volume, c.on(t))
	})
}

// TestImageCUDAVariant checks the image built with the CUDA variant's BASE (make docker-test
// uses a stand-in: a base with a uid-1000 user `ubuntu` and NVIDIA's environment, no GPU): the
// student is still uid 1000, NVIDIA's environment reaches the container, and the kernel works.
func TestImageCUDAVariant(t *testing.T) {
	e, img := requireImage(t, "DLBD_CUDA_IMAGE")
	if got := strings.TrimSpace(e.run("run", "--rm", img, "id")); !strings.HasPrefix(got, "uid=1000(student) gid=1000(student)") {
		t.Errorf("id in the CUDA variant = %q; want uid=1000(student) gid=1000(student)", got)
	}
	if out, err := e.try("run", "--rm", img, "getent", "passwd", "ubuntu"); err == nil {
		t.Errorf("the base's uid-1000 user is still there: %s", out)
	}
	env := e.run("run", "--rm", img, "sh", "-c", `echo "$NVIDIA_VISIBLE_DEVICES|$LD_LIBRARY_PATH|$PATH"`)
	for _, want := range []string{"all|", "/usr/local/nvidia/lib64", "/usr/local/cuda/bin", "/opt/dlbd/bin"} {
		if !strings.Contains(env, want) {
			t.Errorf("the base's environment is lost: %q lacks %q", env, want)
		}
	}
	if out, err := e.try("run", "--rm", "--network", "none", img, "dlbd", "doctor", "-runs", "1"); err != nil {
		t.Errorf("dlbd doctor in the CUDA variant: %v\n%s", err, out)
	}
}

// TestImageTrustsAMountedCA: with a CA bundle mounted where the README says, pip and the go
// command in the container fetch packages (on a machine behind a TLS-inspecting proxy, such as
// CI's, the proxy's CA is in that bundle; without it both fail there).
func TestImageTrustsAMountedCA(t *testing.T) {
	t.Parallel()
	e, img := requireImage(t, "DLBD_IMAGE")
	ca := os.Getenv("DLBD_CA_CERTS")
	if ca == "" {
		t.Skip("DLBD_CA_CERTS is not set (make docker-test sets it to this machine's bundle)")
	}
	fetch := `pip download -q --retries 0 --timeout 20 --no-deps --no-cache-dir -d /tmp/pip six && cd /tmp && GOFLAGS=-modcacherw GOMODCACHE=/tmp/mod go mod download rsc.io/quote@v1.5.2 && echo fetched`
	out, err := e.try("run", "--rm", "-v", ca+":/run/secrets/ca_certs:ro", img, "sh", "-c", fetch)
	if err != nil || !strings.Contains(out, "fetched") {
		t.Fatalf("pip and go with the CA bundle mounted at /run/secrets/ca_certs: %v\n%s", err, out)
	}
	if _, err := e.try("run", "--rm", img, "sh", "-c", fetch); err != nil {
		t.Logf("without the bundle mounted the same fetch fails here (a TLS-inspecting proxy): %.300v", err)
	} else {
		t.Log("without the bundle mounted the fetch works too: this machine's network needs no extra CA")
	}
}
