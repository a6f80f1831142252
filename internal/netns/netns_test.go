package netns

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// The tests are named AcrossHosts so that one -run pattern selects every
// cross-host test of the module (README, "Several hosts or containers").

const helperEnv = "DLBD_NETNS_HELPER"

// TestMain makes the test binary a small TCP peer when started in a host
// with helperEnv set: "listen ADDR" accepts one connection and echoes
// what it reads; "dial ADDR MSG" sends MSG and prints the echo.
func TestMain(m *testing.M) {
	if h := os.Getenv(helperEnv); h != "" {
		if err := helper(strings.Fields(h)); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

func helper(args []string) error {
	switch args[0] {
	case "listen":
		l, err := net.Listen("tcp", args[1])
		if err != nil {
			return err
		}
		fmt.Println("listening")
		c, err := l.Accept()
		if err != nil {
			return err
		}
		_, err = io.Copy(c, c)
		return err
	case "dial":
		var c net.Conn
		var err error
		for range 100 { // until the listener is up
			if c, err = net.DialTimeout("tcp", args[1], time.Second); err == nil {
				break
			}
			time.Sleep(50 * time.Millisecond)
		}
		if err != nil {
			return err
		}
		if _, err := io.WriteString(c, args[2]); err != nil {
			return err
		}
		c.(*net.TCPConn).CloseWrite()
		b, err := io.ReadAll(c)
		fmt.Printf("echo %s\n", b)
		return err
	}
	return fmt.Errorf("unknown helper %q", args)
}

// helperCmd runs this test binary as a helper in host i.
func helperCmd(h *Hosts, i int, args string) *exec.Cmd {
	cmd := h.Command(i, os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), helperEnv+"="+args)
	return cmd
}

// TestAcrossHostsTCP: host 0 reaches host 1 by its address, the bytes
// cross their interfaces, and the machine's own namespace is not on the
// hosts' subnet.
func TestAcrossHostsTCP(t *testing.T) {
	h := ForTest(t, 2)
	before, err := h.LinkBytes(1)
	if err != nil {
		t.Fatal(err)
	}
	addr := h.Host[1].Addr + ":7001"
	srv := helperCmd(h, 1, "listen "+addr)
	var srvOut bytes.Buffer
	srv.Stdout, srv.Stderr = &srvOut, &srvOut
	if err := srv.Start(); err != nil {
		t.Fatal(err)
	}
	msg := strings.Repeat("x", 100000)
	out, err := helperCmd(h, 0, "dial "+addr+" "+msg).CombinedOutput()
	if err != nil || string(out) != "echo "+msg+"\n" {
		t.Fatalf("dial from host 0 to %s: %v\n%.200s", addr, err, out)
	}
	if err := srv.Wait(); err != nil {
		t.Fatalf("listener in host 1: %v\n%s", err, srvOut.String())
	}
	after, err := h.LinkBytes(1)
	if err != nil {
		t.Fatal(err)
	}
	if after-before < 2*uint64(len(msg)) {
		t.Errorf("host 1's interface carried %d bytes; the echo alone is %d", after-before, 2*len(msg))
	}
	// Isolation: the machine's own namespace has no address on the
	// subnet (dialing from it proves nothing where a proxy answers every
	// outbound connection, as in some sandboxes).
	addrs, err := net.InterfaceAddrs()
	if err != nil {
		t.Fatal(err)
	}
	_, subnet, _ := net.ParseCIDR(Subnet)
	for _, a := range addrs {
		if n, ok := a.(*net.IPNet); ok && subnet.Contains(n.IP) {
			t.Errorf("the machine's own namespace has %v on %s: the hosts are not isolated", n, Subnet)
		}
	}
}

// TestAcrossHostsAgent: Open MPI's agent runs a command in the host its
// first argument names, and refuses a host it does not know.
func TestAcrossHostsAgent(t *testing.T) {
	h := ForTest(t, 2)
	for i, hs := range h.Host {
		out, err := exec.Command(h.Agent(), hs.Addr, "ip", "-4", "-br", "addr", "show", "eth0").CombinedOutput()
		if err != nil || !strings.Contains(string(out), hs.Addr+"/24") {
			t.Errorf("agent %s: %v\n%s; want host %d's interface", hs.Addr, err, out, i)
		}
	}
	out, err := exec.Command(h.Agent(), "10.233.0.99", "true").CombinedOutput()
	if err == nil || !strings.Contains(string(out), "no host 10.233.0.99 here") {
		t.Errorf("agent of an unknown host: %v, %q; want an error naming it", err, out)
	}
	hf, err := h.Hostfile(2)
	if err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(hf); string(b) != "10.233.0.1 slots=2\n10.233.0.2 slots=2\n" {
		t.Errorf("hostfile:\n%s", b)
	}
}

// TestAcrossHostsMPIRun: MPIRun places ranks 0 and 1 in host 0 and ranks
// 2 and 3 in host 1 (each sees its host's address).
func TestAcrossHostsMPIRun(t *testing.T) {
	h := ForMPITest(t, 2)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd, err := h.MPIRun(ctx, 2, "sh", "-c", `echo "rank $OMPI_COMM_WORLD_RANK on $(ip -4 -o addr show eth0 | awk '{print $4}')"`)
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("mpirun: %v\n%s", err, out)
	}
	for r := range 4 {
		if want := fmt.Sprintf("rank %d on %s/24\n", r, h.Host[r/2].Addr); !strings.Contains(string(out), want) {
			t.Errorf("mpirun's output lacks %q:\n%s", want, out)
		}
	}
}

// TestAcrossHostsClose: Close kills what runs in the hosts and removes
// every namespace; a second Close is harmless.
func TestAcrossHostsClose(t *testing.T) {
	h := ForTest(t, 2)
	sleep := h.Command(1, "sleep", "600")
	if err := sleep.Start(); err != nil {
		t.Fatal(err)
	}
	if err := h.Close(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- sleep.Wait() }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("a process of host 1 outlived Close")
	}
	for _, name := range []string{h.Host[0].Name, h.Host[1].Name, h.sw} {
		if _, err := os.Stat(filepath.Join("/run/netns", name)); err == nil {
			t.Errorf("namespace %s left after Close", name)
		}
	}
	if err := h.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
}

// TestAcrossHostsStale: the namespaces of a process that died without
// Close (a test killed by its timeout) are removed by the next New,
// processes and all; those of live processes are not.
func TestAcrossHostsStale(t *testing.T) {
	ForTest(t, 1) // skips where namespaces cannot be made
	dead := exec.Command("true")
	if err := dead.Run(); err != nil {
		t.Fatal(err)
	}
	pid := dead.Process.Pid
	if syscall.Kill(pid, 0) == nil {
		t.Skipf("pid %d was reused at once", pid)
	}
	stale := fmt.Sprintf("dlbd-%d-1-h0", pid)
	live := fmt.Sprintf("dlbd-%d-999-h0", os.Getpid())
	ctx := context.Background()
	for _, name := range []string{stale, live} {
		if err := ip(ctx, "netns", "add", name); err != nil {
			t.Fatal(err)
		}
	}
	defer remove(live)
	defer remove(stale)
	sleep := exec.Command("ip", "netns", "exec", stale, "sleep", "600")
	if err := sleep.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan struct{})
	go func() { sleep.Wait(); close(exited) }()
	for i := 0; ; i++ { // until ip netns exec has entered the namespace
		if pids, _ := nsPids(stale); len(pids) > 0 {
			break
		}
		if i == 200 {
			t.Fatalf("sleep did not start in %s", stale)
		}
		time.Sleep(10 * time.Millisecond)
	}
	h := ForTest(t, 2)
	if _, err := os.Stat("/run/netns/" + stale); err == nil {
		t.Errorf("New left %s, whose maker (pid %d) is gone", stale, pid)
	}
	select {
	case <-exited:
	case <-time.After(5 * time.Second):
		t.Errorf("the process left in %s still runs", stale)
	}
	if _, err := os.Stat("/run/netns/" + live); err != nil {
		t.Errorf("New removed %s, whose maker runs: %v", live, err)
	}
	if len(h.Host) != 2 {
		t.Errorf("%d hosts", len(h.Host))
	}
}

func TestNewRefusesSizes(t *testing.T) {
	for _, n := range []int{0, MaxHosts + 1} {
		if _, err := New(context.Background(), n); err == nil || !strings.Contains(err.Error(), "need 1 to") {
			t.Errorf("New(%d) = %v", n, err)
		}
	}
}
