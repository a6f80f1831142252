package docker_test

// Tests of the classroom (docker/classroom): the hub from classroom.sh with DockerSpawner and
// the dlbd image as each student's server, driven over HTTP as students' browsers and the
// instructor's scripts would. Run by `make classroom-test` (scripts/docker/classroom-test.sh),
// which names the dlbd image in DLBD_CLASSROOM_IMAGE; without it they skip.
//
//   DLBD_CLASSROOM_STUDENTS   how many students (default 4; the README's longer run: 8)
//   DLBD_CLASSROOM_HUB_IMAGE  the hub's image (default dlbd-hub, built by classroom.sh)

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/dlbd/dlbd/kernel/nbexec"
)

// classroom is a hub started by classroom.sh for one test, and what it must remove at the end.
type classroom struct {
	e        engine
	env      []string // DLBD_CLASSROOM_* for classroom.sh
	url      string   // http://127.0.0.1:PORT/
	apiToken string
	hub      jupyterServer // the hub's REST API (base .../hub/api/) with the service token
	prefix   string
}

func requireClassroomImage(t *testing.T) (engine, string) {
	t.Helper()
	return requireImage(t, "DLBD_CLASSROOM_IMAGE")
}

func freePort(t *testing.T) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// startClassroom runs classroom.sh up with names of its own (hub, network, containers), free
// ports and an admin API token, and removes all of it, students' volumes included, at the end.
func startClassroom(t *testing.T, e engine, img string, extra ...string) *classroom {
	t.Helper()
	id := randomHex(4)
	port := freePort(t)
	c := &classroom{e: e, apiToken: randomHex(24), prefix: "dlbd-ctest-" + id, url: fmt.Sprintf("http://127.0.0.1:%d/", port)}
	c.env = append([]string{
		"DLBD_CLASSROOM_HUB=dlbd-hub-test-" + id,
		"DLBD_CLASSROOM_NETWORK=dlbd-classroom-test-" + id,
		"DLBD_CLASSROOM_PREFIX=" + c.prefix,
		"DLBD_CLASSROOM_IMAGE=" + img,
		"DLBD_CLASSROOM_ADMIN=instructor",
		"DLBD_CLASSROOM_API_TOKEN=" + c.apiToken,
		"DLBD_CLASSROOM_PORT=" + strconv.Itoa(port),
		"DLBD_CLASSROOM_HUB_PORT=" + strconv.Itoa(freePort(t)),
		"DLBD_CLASSROOM_PROXY_API_PORT=" + strconv.Itoa(freePort(t)),
		"DLBD_DOCKER=" + e.cli,
	}, extra...)
	if hi := os.Getenv("DLBD_CLASSROOM_HUB_IMAGE"); hi != "" {
		c.env = append(c.env, "DLBD_CLASSROOM_HUB_IMAGE="+hi)
	}
	t.Cleanup(func() {
		if t.Failed() {
			out, _ := exec.Command(e.cli, "logs", "--tail", "60", "dlbd-hub-test-"+id).CombinedOutput()
			t.Logf("the hub's log (last 60 lines):\n%s", out)
		}
		if out, err := c.script("down", "--all"); err != nil {
			t.Errorf("classroom.sh down --all: %v\n%s", err, out)
		}
		vols, _ := e.try("volume", "ls", "-q", "--filter", "name=dlbd-work-st"+id)
		for _, v := range append(strings.Fields(vols), "dlbd-hub-test-"+id+"-data") {
			e.try("volume", "rm", "-f", v)
		}
	})
	c.up(t)
	c.hub = jupyterServer{base: c.url + "hub/api/", token: c.apiToken}
	return c
}

// script runs classroom.sh with the test's settings.
func (c *classroom) script(args ...string) (string, error) {
	cmd := exec.Command(filepath.Join("classroom", "classroom.sh"), args...)
	cmd.Env = append(os.Environ(), c.env...)
	out, err := cmd.CombinedOutput()
	return string(out), err
}

func (c *classroom) up(t *testing.T, extra ...string) {
	t.Helper()
	c.env = append(c.env, extra...)
	t0 := time.Now()
	if out, err := c.script("up"); err != nil {
		t.Fatalf("classroom.sh up: %v\n%s", err, out)
	}
	t.Logf("classroom.sh up: the hub answered in %.1f s", time.Since(t0).Seconds())
}

// api calls the hub's REST API with the service token and decodes a JSON answer into out.
func (c *classroom) api(t *testing.T, method, path string, body any, want int, out any) {
	t.Helper()
	code, data, err := c.hub.do(method, path, body)
	if err != nil {
		t.Fatal(err)
	}
	if code != want {
		t.Fatalf("hub API %s %s: %d %.400s; want %d", method, path, code, data, want)
	}
	if out != nil {
		if err := json.Unmarshal(data, out); err != nil {
			t.Fatalf("hub API %s %s: %v in %.200s", method, path, err, data)
		}
	}
}

// student is a user of the classroom with a token of their own.
type student struct {
	name  string
	token string
	srv   jupyterServer // /user/NAME/
}

func (c *classroom) addStudents(t *testing.T, n int) []*student {
	t.Helper()
	id := strings.TrimPrefix(c.prefix, "dlbd-ctest-")
	var names []string
	for i := 0; i < n; i++ {
		names = append(names, fmt.Sprintf("st%s-%d", id, i))
	}
	c.api(t, "POST", "users", map[string]any{"usernames": names}, 201, nil)
	var out []*student
	for _, name := range names {
		var tok struct{ Token string }
		c.api(t, "POST", "users/"+name+"/tokens", map[string]any{"note": "classroom test", "expires_in": 3600}, 201, &tok)
		out = append(out, &student{name: name, token: tok.Token, srv: jupyterServer{base: c.url + "user/" + name + "/", token: tok.Token}})
	}
	return out
}

// spawn asks the hub to start the student's server.
func (c *classroom) spawn(t *testing.T, s *student) {
	t.Helper()
	code, data, err := c.hub.do("POST", "users/"+s.name+"/server", nil)
	if err != nil || (code != 201 && code != 202) {
		t.Fatalf("hub API: start %s's server: %d %v %.300s", s.name, code, err, data)
	}
}

// serverState returns whether the student's server exists and whether it is ready.
func (c *classroom) serverState(s *student) (exists, ready bool, err error) {
	code, data, err := c.hub.do("GET", "users/"+s.name, nil)
	if err != nil || code != 200 {
		return false, false, fmt.Errorf("hub API GET users/%s: %d %v %.200s", s.name, code, err, data)
	}
	var u struct {
		Servers map[string]struct{ Ready bool }
	}
	if err := json.Unmarshal(data, &u); err != nil {
		return false, false, err
	}
	sv, ok := u.Servers[""]
	return ok, ok && sv.Ready, nil
}

// waitReady waits until the student's server is ready and answers its API with the token.
func (c *classroom) waitReady(s *student, timeout time.Duration) error {
	t0 := time.Now()
	for time.Since(t0) < timeout {
		if _, ready, err := c.serverState(s); err != nil {
			return err
		} else if ready {
			if code, _, err := s.srv.do("GET", "api/status", nil); err == nil && code == 200 {
				return nil
			}
		}
		time.Sleep(500 * time.Millisecond)
	}
	return fmt.Errorf("%s's server was not ready within %v", s.name, timeout)
}

func (c *classroom) stopServer(t *testing.T, s *student) {
	t.Helper()
	code, data, err := c.hub.do("DELETE", "users/"+s.name+"/server", nil)
	if err != nil || (code != 204 && code != 202) {
		t.Fatalf("hub API: stop %s's server: %d %v %.300s", s.name, code, err, data)
	}
	for t0 := time.Now(); time.Since(t0) < 2*time.Minute; time.Sleep(time.Second) {
		if exists, _, err := c.serverState(s); err == nil && !exists {
			return
		}
	}
	t.Fatalf("%s's server did not stop within 2 minutes", s.name)
}

func (c *classroom) container(s *student) string { return c.prefix + "-" + s.name }

func (c *classroom) hubName() string {
	return "dlbd-hub-test-" + strings.TrimPrefix(c.prefix, "dlbd-ctest-")
}

// courseCells returns the code cells of a course notebook, in order.
func courseCells(t *testing.T, name string) []string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(repo, "notebooks", name))
	if err != nil {
		t.Fatal(err)
	}
	nb, err := nbexec.Parse(data)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	var cells []string
	for _, c := range nb.Cells {
		if c.CellType == "code" {
			cells = append(cells, string(c.Source))
		}
	}
	return cells
}

// runCells runs cells on a new dlbd kernel of srv and returns their outputs; a failed cell is
// an error.
func runCells(srv jupyterServer, cells []string) (string, error) {
	k, err := srv.startKernel("dlbd")
	if err != nil {
		return "", err
	}
	defer k.Close()
	var all strings.Builder
	for i, code := range cells {
		r, err := k.execute(code, 5*time.Minute)
		if err != nil {
			return all.String(), fmt.Errorf("cell %d: %w", i+1, err)
		}
		all.WriteString(r.Text)
		if r.Status != "ok" {
			return all.String(), fmt.Errorf("cell %d (%.80q) ended %s: %s", i+1, code, r.Status, r.Text)
		}
	}
	return all.String(), nil
}

func studentCount(t *testing.T) int {
	n := 4
	if v := os.Getenv("DLBD_CLASSROOM_STUDENTS"); v != "" {
		var err error
		if n, err = strconv.Atoi(v); err != nil || n < 3 {
			t.Fatalf("DLBD_CLASSROOM_STUDENTS=%q: want a number of students, 3 or more", v)
		}
	}
	return n
}

// TestClassroom: N students' servers spawned at once through the hub's API each run a course
// notebook on the dlbd kernel; each student's server opens only with their own token; students
// see neither each other's files nor each other's containers on the network; one student going
// over the memory limit loses only their own kernel; work survives a stop and start of the server;
// the idle culler stops servers and leaves their volumes.
func TestClassroom(t *testing.T) {
	e, img := requireClassroomImage(t)
	t.Parallel()
	t0 := time.Now()
	const mem = "1536m"
	c := startClassroom(t, e, img, "DLBD_CLASSROOM_MEM="+mem, "DLBD_CLASSROOM_CPUS=1", "DLBD_CLASSROOM_PIDS=512",
		"DLBD_CLASSROOM_CULL_TIMEOUT=0", "DLBD_CLASSROOM_ACTIVITY_INTERVAL=15")
	n := studentCount(t)
	st := c.addStudents(t, n)

	// All servers at once, as at the start of a class.
	tSpawn := time.Now()
	readyIn := make([]time.Duration, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i, s := range st {
		c.spawn(t, s)
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = c.waitReady(s, 5*time.Minute)
			readyIn[i] = time.Since(tSpawn)
		}()
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			out, _ := e.try("logs", "--tail", "40", c.container(st[i]))
			t.Fatalf("%v; its container's log:\n%s", err, out)
		}
	}
	var slowest time.Duration
	for _, d := range readyIn {
		slowest = max(slowest, d)
	}
	t.Logf("REPORT %d servers spawned at once: ready after %v (slowest %.1f s)", n, roundAll(readyIn), slowest.Seconds())
	idle := strings.TrimSpace(e.run("stats", "--no-stream", "--format", "{{.MemUsage}}", c.container(st[0])))
	t.Logf("REPORT memory of an idle student's container (docker stats): %s", idle)

	t.Run("status", func(t *testing.T) {
		out, err := c.script("status")
		if err != nil {
			t.Fatalf("classroom.sh status: %v\n%s", err, out)
		}
		for _, want := range append([]string{"hub: " + c.hubName() + " Up"}, func() (names []string) {
			for _, s := range st {
				names = append(names, c.container(s)+" mem ")
			}
			return
		}()...) {
			if !strings.Contains(out, want) {
				t.Errorf("classroom.sh status lacks %q:\n%s", want, out)
			}
		}
	})

	t.Run("limits", func(t *testing.T) {
		e := engine{t, e.cli}
		got := strings.TrimSpace(e.run("inspect", "-f", "{{.HostConfig.Memory}} {{.HostConfig.CpuQuota}}/{{.HostConfig.CpuPeriod}} {{.HostConfig.PidsLimit}} {{.HostConfig.ShmSize}} {{.HostConfig.NetworkMode}} {{range .Mounts}}{{.Name}}:{{.Destination}}{{end}}", c.container(st[0])))
		want := fmt.Sprintf("%d 100000/100000 512 1073741824 dlbd-classroom-test-%s dlbd-work-%s:/home/student/work", 1536<<20, strings.TrimPrefix(c.prefix, "dlbd-ctest-"), st[0].name)
		if got != want {
			t.Errorf("student container's limits, network and volume = %q; want %q", got, want)
		}
	})

	t.Run("tokens", func(t *testing.T) {
		a, b := st[0], st[1]
		if code, body, err := a.srv.do("GET", "api/kernelspecs", nil); err != nil || code != 200 || !strings.Contains(string(body), `"dlbd"`) {
			t.Errorf("GET /user/%s/api/kernelspecs with %s's token = %d %v %.200s; want 200 listing dlbd", a.name, a.name, code, err, body)
		}
		other := jupyterServer{base: a.srv.base, token: b.token}
		if code, _, err := other.do("GET", "api/contents", nil); err != nil || code != 403 {
			t.Errorf("GET /user/%s/api/contents with %s's token = %d %v; want 403", a.name, b.name, code, err)
		}
		none := jupyterServer{base: a.srv.base}
		if code, _, _ := none.do("GET", "api/contents", nil); code != 403 && code != 302 && code != 401 {
			t.Errorf("GET /user/%s/api/contents without a token = %d; want it refused", a.name, code)
		}
	})

	// Every student runs the first cells of notebook 00 (values living between cells, a model
	// trained in one cell and used in the next), one student the whole notebook; all at once.
	t.Run("notebook", func(t *testing.T) {
		cells := courseCells(t, "00-bienvenida.ipynb")
		t1 := time.Now()
		outs := make([]string, n)
		errs := make([]error, n)
		var wg sync.WaitGroup
		for i, s := range st {
			wg.Add(1)
			go func() {
				defer wg.Done()
				run := cells[:min(7, len(cells))]
				if i == 0 {
					run = cells
				}
				outs[i], errs[i] = runCells(s.srv, run)
			}()
		}
		wg.Wait()
		for i := range st {
			if errs[i] != nil {
				t.Errorf("%s: notebook 00 on the dlbd kernel: %v", st[i].name, errs[i])
				continue
			}
			for _, want := range []string{"contador = 2", "w = "} {
				if !strings.Contains(outs[i], want) {
					t.Errorf("%s: notebook 00's outputs lack %q:\n%.1000s", st[i].name, want, outs[i])
				}
			}
		}
		if errs[0] == nil && !strings.Contains(outs[0], "en modo proceso, contador = 1") {
			t.Errorf("%s: the whole notebook 00 lacks its process-mode cells' output:\n%.1500s", st[0].name, outs[0])
		}
		t.Logf("REPORT notebook 00 (all %d code cells in one server, 7 in the others) on %d servers at once: %.1f s", len(cells), n, time.Since(t1).Seconds())
	})

	// Spark in a student's server: notebook 01b starts a local Spark Connect server (Java,
	// pyspark's jars) inside the container, under its memory limit, and compares it with DuckDB.
	// It runs in a third student's server while the checks below use the first two.
	spark := st[2]
	sparkCells := courseCells(t, "01b-formatos-columnares-y-sql.ipynb")
	type sparkRun struct {
		out     string
		err     error
		elapsed time.Duration
	}
	sparkDone := make(chan sparkRun, 1)
	go func() {
		t1 := time.Now()
		out, err := runCells(spark.srv, sparkCells)
		sparkDone <- sparkRun{out, err, time.Since(t1)}
	}()

	t.Run("files", func(t *testing.T) {
		e := engine{t, e.cli}
		a, b := st[0], st[1]
		body := map[string]any{"type": "file", "format": "text", "content": "solo de " + a.name}
		if code, data, err := a.srv.do("PUT", "api/contents/privado.txt", body); err != nil || code/100 != 2 {
			t.Fatalf("PUT privado.txt in %s's server: %d %v %.200s", a.name, code, err, data)
		}
		if code, _, _ := a.srv.do("GET", "api/contents/privado.txt", nil); code != 200 {
			t.Fatalf("%s cannot read back privado.txt: %d", a.name, code)
		}
		if code, _, _ := b.srv.do("GET", "api/contents/privado.txt", nil); code != 404 {
			t.Errorf("%s's server answers GET privado.txt (written by %s) with %d; want 404", b.name, a.name, code)
		}
		// (find exits 1 on the directories it may not read; what it prints is what counts)
		if out, _ := e.try("exec", c.container(b), "sh", "-c", "find / \\( -path /proc -o -path /sys \\) -prune -o -name privado.txt -print 2>/dev/null; echo searched"); strings.TrimSpace(out) != "searched" {
			t.Errorf("%s's container sees %s's file: %q", b.name, a.name, out)
		}
	})

	t.Run("network", func(t *testing.T) {
		e := engine{t, e.cli}
		a, b := st[0], st[1]
		ipA := strings.TrimSpace(e.run("inspect", "-f", "{{range .NetworkSettings.Networks}}{{.IPAddress}}{{end}}", c.container(a)))
		// From the host (where the hub runs) A's port answers: the probe below can succeed.
		conn, err := net.DialTimeout("tcp", ipA+":8888", 5*time.Second)
		if err != nil {
			t.Fatalf("the host cannot reach %s's server at %s:8888 (the hub could not either): %v", a.name, ipA, err)
		}
		conn.Close()
		probe := fmt.Sprintf("import socket\ns = socket.socket()\ns.settimeout(4)\ntry:\n    s.connect((%q, 8888))\n    print('connected')\nexcept OSError as e:\n    print('refused', e)\n", ipA)
		out, err := e.try("exec", c.container(b), "python3", "-c", probe)
		if err != nil || !strings.HasPrefix(out, "refused") {
			t.Errorf("from %s's container, connecting to %s's Jupyter (%s:8888): %q %v; want it to fail", b.name, a.name, ipA, out, err)
		}
		out, err = e.try("exec", c.container(b), "python3", "-c", strings.Replace(probe, ipA, "1.1.1.1", 1))
		if err != nil || !strings.HasPrefix(out, "refused") {
			t.Errorf("from %s's container, connecting outside (1.1.1.1:8888): %q %v; want no route (an --internal network)", b.name, out, err)
		}
	})

	t.Run("memory", func(t *testing.T) {
		a, b := st[0], st[1]
		ka, err := a.srv.startKernel("dlbd")
		if err != nil {
			t.Fatal(err)
		}
		defer ka.Close()
		kb, err := b.srv.startKernel("dlbd")
		if err != nil {
			t.Fatal(err)
		}
		defer kb.Close()
		if r, err := kb.execute("var vivo = 41", 5*time.Minute); err != nil || r.Status != "ok" {
			t.Fatalf("%s's kernel: %v %+v", b.name, err, r)
		}
		// 3 GiB, touched, in a container limited to 1.5 GiB: the kernel is the process the
		// kernel's OOM killer takes.
		hog := "%%\nbig := make([]byte, 3<<30)\nfor i := 0; i < len(big); i += 4096 {\n\tbig[i] = 1\n}\nfmt.Println(len(big))"
		r, err := ka.execute(hog, 5*time.Minute)
		if err != nil {
			t.Fatalf("%s's over-the-limit cell: %v", a.name, err)
		}
		// The dlbd kernel runs the cell in a process of its own and says when the kernel of the
		// machine killed it (signal 9); a kernel that died whole is reported dead.
		if r.Status != "dead" && !(r.Status == "error" && strings.Contains(r.Text, "signal 9")) {
			t.Errorf("%s's cell allocating 3 GiB under a %s limit ended %q: %s; want its kernel killed", a.name, mem, r.Status, r.Text)
		}
		t.Logf("%s's over-the-limit cell ended %q: %.300s", a.name, r.Status, r.Text)
		if r, err := kb.execute("%%\nvivo++\nfmt.Println(\"vivo =\", vivo)", 5*time.Minute); err != nil || r.Status != "ok" || !strings.Contains(r.Text, "vivo = 42") {
			t.Errorf("%s's kernel after %s went over the limit: %v %+v; want vivo = 42", b.name, a.name, err, r)
		}
		if code, _, err := a.srv.do("GET", "api/status", nil); err != nil || code != 200 {
			t.Errorf("%s's server after its kernel was killed: %d %v; want it answering", a.name, code, err)
		}
		// A's kernel comes back (Jupyter restarts a kernel that died) or a new one starts.
		if out, err := runCells(a.srv, []string{"%%\nfmt.Println(\"otra vez\")"}); err != nil || !strings.Contains(out, "otra vez") {
			t.Errorf("%s cannot run a cell after the kernel died: %v %q", a.name, err, out)
		}
	})

	t.Run("persistence", func(t *testing.T) {
		e := engine{t, e.cli}
		a := st[0]
		body := map[string]any{"type": "file", "format": "text", "content": "trabajo de " + a.name}
		if code, data, err := a.srv.do("PUT", "api/contents/trabajo.txt", body); err != nil || code/100 != 2 {
			t.Fatalf("PUT trabajo.txt: %d %v %.200s", code, err, data)
		}
		c.stopServer(t, a)
		// DockerSpawner.remove: Docker removes the stopped container (auto-remove), shortly after.
		for t1 := time.Now(); ; time.Sleep(500 * time.Millisecond) {
			if _, err := e.try("container", "inspect", c.container(a)); err != nil {
				break
			}
			if time.Since(t1) > 30*time.Second {
				t.Fatalf("%s's container is still there 30 s after its server stopped (DockerSpawner.remove)", a.name)
			}
		}
		c.spawn(t, a)
		if err := c.waitReady(a, 3*time.Minute); err != nil {
			t.Fatal(err)
		}
		code, data, err := a.srv.do("GET", "api/contents/trabajo.txt", nil)
		if err != nil || code != 200 || !strings.Contains(string(data), "trabajo de "+a.name) {
			t.Errorf("after a stop and start of %s's server, trabajo.txt = %d %v %.200s", a.name, code, err, data)
		}
	})

	t.Run("spark", func(t *testing.T) {
		r := <-sparkDone
		if r.err != nil {
			t.Fatalf("%s: notebook 01b (DuckDB and Spark) on the dlbd kernel: %v\n%.1500s", spark.name, r.err, r.out)
		}
		if !strings.Contains(r.out, "sesión Spark en") {
			t.Errorf("%s: notebook 01b's outputs lack the Spark session:\n%.1500s", spark.name, r.out)
		}
		t.Logf("REPORT notebook 01b (DuckDB and a local Spark Connect server) in %s's server: %.1f s, beside the checks above", spark.name, r.elapsed.Seconds())
	})

	// classroom.sh up again (a changed setting): the hub restarts, the students' servers go on.
	t.Run("hub-restart", func(t *testing.T) {
		for _, s := range st {
			if exists, _, _ := c.serverState(s); !exists {
				t.Fatalf("%s's server is not running before the hub's restart", s.name)
			}
		}
		// The image's HEALTHCHECK, under the prefix /user/NAME/ (its first probe is 30 s after start).
		e := engine{t, e.cli}
		b := st[1]
		for t1 := time.Now(); ; time.Sleep(2 * time.Second) {
			h := strings.TrimSpace(e.run("inspect", "-f", "{{.State.Health.Status}}", c.container(b)))
			if h == "healthy" {
				break
			}
			if h == "unhealthy" || time.Since(t1) > 90*time.Second {
				t.Errorf("%s's container under the hub: HEALTHCHECK %s: %s", b.name, h, e.run("inspect", "-f", "{{json .State.Health}}", c.container(b)))
				break
			}
		}
		c.up(t)
		for _, s := range st {
			if exists, _, err := c.serverState(s); err != nil || !exists {
				t.Errorf("%s's server is gone after the hub's restart: %v", s.name, err)
			}
		}
		if code, _, err := b.srv.do("GET", "api/contents", nil); err != nil || code != 200 {
			t.Errorf("%s's server through the restarted hub's proxy: %d %v", b.name, code, err)
		}
	})

	// The hub restarted with a short idle timeout: the culler stops the idle servers; their
	// volumes and files stay.
	t.Run("culler", func(t *testing.T) {
		e := engine{t, e.cli}
		c.up(t, "DLBD_CLASSROOM_CULL_TIMEOUT=30", "DLBD_CLASSROOM_CULL_EVERY=10")
		a := st[0]
		t1 := time.Now()
		for {
			exists, _, err := c.serverState(a)
			if err != nil {
				t.Fatal(err)
			}
			if !exists {
				break
			}
			if time.Since(t1) > 3*time.Minute {
				t.Fatalf("the idle culler did not stop %s's server within 3 minutes", a.name)
			}
			time.Sleep(2 * time.Second)
		}
		t.Logf("the culler stopped %s's idle server %.0f s after the hub's restart", a.name, time.Since(t1).Seconds())
		// The instructor's way to collect a student's work (README): tar to standard output.
		out, err := e.try("run", "--rm", "--network", "none", "-v", "dlbd-work-"+a.name+":/w:ro", "--entrypoint", "tar", img, "-C", "/w", "-cz", ".")
		if err != nil {
			t.Fatalf("collecting %s's volume with tar: %v", a.name, err)
		}
		if got := fileInTarGz(t, []byte(out), "./trabajo.txt"); got != "trabajo de "+a.name {
			t.Errorf("%s's volume after the culler, collected: trabajo.txt = %q; want %q", a.name, got, "trabajo de "+a.name)
		}
	})
	t.Logf("REPORT TestClassroom with %d students took %.0f s", n, time.Since(t0).Seconds())
}

// fileInTarGz returns the contents of name in a gzipped tar archive ("" when it is not there).
func fileInTarGz(t *testing.T, data []byte, name string) string {
	t.Helper()
	zr, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("not a gzip archive (%d bytes): %v", len(data), err)
	}
	tr := tar.NewReader(zr)
	for {
		h, err := tr.Next()
		if err == io.EOF {
			return ""
		}
		if err != nil {
			t.Fatalf("reading the tar archive: %v", err)
		}
		if h.Name == name {
			b, _ := io.ReadAll(tr)
			return string(b)
		}
	}
}

func roundAll(ds []time.Duration) []string {
	var out []string
	for _, d := range ds {
		out = append(out, fmt.Sprintf("%.1fs", d.Seconds()))
	}
	return out
}

// TestClassroomKubernetesShaped runs the image as Zero to JupyterHub does: the student's volume,
// empty, owned by root with the pod's fsGroup (1000) on it, group-writable and setgid, mounted
// over the whole home directory. The entry point puts the course into work/, the dlbd
// kernelspec is still listed (it lives in /opt/dlbd, not in $HOME) and a notebook's cells run.
// Docker would put an anonymous volume on the image's VOLUME /home/student/work, which
// Kubernetes ignores; so the home is a host directory, and its work/ is bound there too.
func TestClassroomKubernetesShaped(t *testing.T) {
	e, img := requireClassroomImage(t)
	t.Parallel()
	home := t.TempDir()
	// As root in a container: the test may not be root; the files the student makes are uid 1000's.
	asRoot := func(script string) (string, error) {
		return e.try("run", "--rm", "--network", "none", "--user", "0", "--entrypoint", "sh", "-v", home+":/h", img, "-c", script)
	}
	t.Cleanup(func() { asRoot("rm -rf /h/* /h/.[!.]*") })
	// What kubelet does with fsGroup: group 1000, group-writable, setgid.
	if out, err := asRoot("mkdir /h/work && chown 0:1000 /h /h/work && chmod 2775 /h /h/work"); err != nil {
		t.Fatalf("preparing the home directory: %v %s", err, out)
	}
	c := &container{e: e, name: randomName("dlbd-test-k8s-"), token: randomName("tok")}
	t0 := time.Now()
	e.run("run", "-d", "--name", c.name, "-p", "127.0.0.1::8888", "-v", home+":/home/student", "-v", filepath.Join(home, "work")+":/home/student/work",
		"--shm-size=1g", "-e", "JUPYTER_TOKEN="+c.token, img)
	t.Cleanup(func() { e.try("rm", "-f", "-v", c.name) })
	if got := strings.TrimSpace(e.run("inspect", "-f", "{{range .Mounts}}{{.Type}}:{{.Destination}} {{end}}", c.name)); got != "bind:/home/student bind:/home/student/work" && got != "bind:/home/student/work bind:/home/student" {
		t.Errorf("mounts = %q; want only the home directory and its work/ (no anonymous volume)", got)
	}
	t.Logf("REPORT Kubernetes-shaped run (a fresh volume over /home/student): Jupyter answered %.1f s after docker run", c.waitAPI(t0).Seconds())
	if out := c.exec("ls", "-A", "/home/student"); strings.Contains(out, ".bashrc") {
		t.Errorf("the home volume holds the image's files (%q): it was not mounted empty, as Kubernetes mounts it", out)
	}
	if out := strings.TrimSpace(c.exec("stat", "-c", "%u:%g", "/home/student/work/curso", "/home/student/work/curso/00-bienvenida.ipynb")); out != "1000:1000\n1000:1000" {
		t.Errorf("owner of work/curso and its notebook on the fresh home volume = %q; want 1000:1000 (the entry point makes them)", out)
	}
	if code, body := c.get("/api/kernelspecs", true); code != 200 || !strings.Contains(body, `"dlbd"`) {
		t.Errorf("GET /api/kernelspecs with the home dir on a fresh volume = %d %.200s; want dlbd listed", code, body)
	}
	srv := jupyterServer{base: c.url + "/", token: c.token}
	out, err := runCells(srv, courseCells(t, "00-bienvenida.ipynb")[:7])
	if err != nil || !strings.Contains(out, "contador = 2") || !strings.Contains(out, "w = ") {
		t.Errorf("notebook 00 with the home dir on a fresh volume: %v\n%.1000s", err, out)
	}
	t.Logf("notebook 00's first 7 cells ran with the home dir on a fresh volume:\n%.600s", out)
}
