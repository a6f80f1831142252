// Package netns makes a small cluster of "hosts" on one Linux machine for
// tests: each host is a network namespace with its own address on a
// shared subnet, so that programs started in different hosts can reach
// each other only over TCP/IP, as on separate machines.
//
// # Overview
//
//	h, err := netns.New(ctx, 2)        // or h := netns.ForTest(t, 2) in a test
//	defer h.Close()
//	h.Host[1].Addr                     // "10.233.0.2"
//	h.Command(1, "sh", "-c", "...")    // an *exec.Cmd that runs in host 1
//	cmd, err := h.MPIRun(ctx, 2, prog) // mpirun from host 0, 2 ranks per host
//
// Host i is the namespace Host[i].Name with interface eth0 at
// Host[i].Addr (10.233.0.i+1/24, Subnet) and loopback up; the eth0s are
// plugged into a bridge that lives in a namespace of its own, so nothing
// is added to the machine's own network and several clusters (of this
// process or of others) can exist at once with the same addresses.
//
// For Open MPI the cluster writes a hostfile (Hostfile) naming the hosts
// by address and an rsh agent (Agent) that Open MPI calls instead of ssh:
// `agent HOST CMD...` runs CMD in HOST's namespace. MPIRunArgs are the
// mpirun options that use them, with the TCP transport on Subnet and no
// shared memory (README, "Several hosts or containers, CPUs (MPI)").
//
// # Errors
//
// Making namespaces needs root (CAP_SYS_ADMIN) and iproute2's ip: where
// they are missing New returns an error that wraps ErrUnavailable and
// says what is missing, and ForTest skips the test (fails it when
// DLBD_REQUIRE_NETNS=1). Close kills every process left in the hosts and
// removes the namespaces; New first removes the namespaces that an
// earlier process left (one killed before its Close) when that process
// no longer exists.
package netns

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
)

// Subnet is the hosts' subnet; host i has address 10.233.0.(i+1).
const Subnet = "10.233.0.0/24"

// MaxHosts is the most hosts New makes.
const MaxHosts = 16

// RequireEnv names the variable that, set to 1, makes ForTest fail
// instead of skipping where namespaces cannot be made.
const RequireEnv = "DLBD_REQUIRE_NETNS"

// ErrUnavailable is wrapped by New's error when this machine or user
// cannot make network namespaces.
var ErrUnavailable = errors.New("network namespaces unavailable")

// Host is one host of the cluster.
type Host struct {
	// Name is the host's network namespace (ip netns exec Name ...).
	Name string
	// Addr is the host's IPv4 address on Subnet.
	Addr string
}

// Hosts is a cluster made by New; Close removes it.
type Hosts struct {
	// Host lists the hosts; Host[0] is where MPIRun runs mpirun.
	Host []Host

	prefix string // namespace names start with it
	sw     string // the namespace of the bridge
	dir    string // hostfiles and the agent
	agent  string
	once   sync.Once
	err    error
}

// iface is each host's interface on the bridge.
const iface = "eth0"

var seq atomic.Int64

// staleName matches the namespaces of this package: dlbd-PID-SEQ-(sw|hI).
var staleName = regexp.MustCompile(`^dlbd-(\d+)-\d+-(sw|h\d+)$`)

// New makes n hosts (1 <= n <= MaxHosts) joined by a bridge, and their
// hostfiles' directory and rsh agent. ctx bounds the setup only.
func New(ctx context.Context, n int) (*Hosts, error) {
	if n < 1 || n > MaxHosts {
		return nil, fmt.Errorf("netns: New(%d hosts): need 1 to %d", n, MaxHosts)
	}
	if os.Geteuid() != 0 {
		return nil, fmt.Errorf("netns: making network namespaces needs root (uid %d): run the tests as root (sudo, or a container started with --privileged): %w", os.Geteuid(), ErrUnavailable)
	}
	if _, err := exec.LookPath("ip"); err != nil {
		return nil, fmt.Errorf("netns: iproute2's ip not found: apt-get install iproute2: %w", ErrUnavailable)
	}
	RemoveStale()
	prefix := fmt.Sprintf("dlbd-%d-%d-", os.Getpid(), seq.Add(1))
	h := &Hosts{prefix: prefix, sw: prefix + "sw"}
	// The switch first: a failure here means no namespaces at all.
	if err := ip(ctx, "netns", "add", h.sw); err != nil {
		return nil, fmt.Errorf("netns: cannot make a network namespace (needs CAP_SYS_ADMIN; in a container, --privileged): %w: %w", err, ErrUnavailable)
	}
	if err := h.setup(ctx, n); err != nil {
		return nil, errors.Join(err, h.Close())
	}
	return h, nil
}

func (h *Hosts) setup(ctx context.Context, n int) error {
	steps := [][]string{
		{"-n", h.sw, "link", "add", "br0", "type", "bridge"},
		{"-n", h.sw, "link", "set", "br0", "up"},
	}
	for i := range n {
		hs := Host{Name: h.prefix + "h" + strconv.Itoa(i), Addr: fmt.Sprintf("10.233.0.%d", i+1)}
		h.Host = append(h.Host, hs)
		port := "p" + strconv.Itoa(i)
		steps = append(steps,
			[]string{"netns", "add", hs.Name},
			[]string{"-n", h.sw, "link", "add", port, "type", "veth", "peer", "name", iface, "netns", hs.Name},
			[]string{"-n", h.sw, "link", "set", port, "master", "br0", "up"},
			[]string{"-n", hs.Name, "addr", "add", hs.Addr + "/24", "dev", iface},
			[]string{"-n", hs.Name, "link", "set", iface, "up"},
			[]string{"-n", hs.Name, "link", "set", "lo", "up"},
		)
	}
	for _, s := range steps {
		if err := ip(ctx, s...); err != nil {
			return fmt.Errorf("netns: making %d hosts: %w", n, err)
		}
	}
	dir, err := os.MkdirTemp("", h.prefix)
	if err != nil {
		return fmt.Errorf("netns: %w", err)
	}
	h.dir = dir
	h.agent = filepath.Join(dir, "agent")
	if err := os.WriteFile(h.agent, []byte(h.agentScript()), 0o755); err != nil {
		return fmt.Errorf("netns: writing the rsh agent: %w", err)
	}
	return nil
}

// agentScript is the rsh agent: Open MPI runs `agent HOST CMD...` as it
// would run `ssh HOST CMD...`; the agent runs CMD with sh in HOST's
// namespace.
func (h *Hosts) agentScript() string {
	var b strings.Builder
	b.WriteString("#!/bin/sh\n# Open MPI's plm_rsh_agent for dlbd's internal/netns hosts: \"agent HOST CMD...\"\n# runs CMD in HOST's network namespace, as \"ssh HOST CMD...\" would on a real host.\nhost=$1\nshift\ncase \"$host\" in\n")
	var known []string
	for _, hs := range h.Host {
		fmt.Fprintf(&b, "%s) ns=%s ;;\n", hs.Addr, hs.Name)
		known = append(known, hs.Addr)
	}
	fmt.Fprintf(&b, "*) echo \"netns agent: no host $host here (the hosts are %s): name them by address in the hostfile\" >&2; exit 255 ;;\nesac\nexec ip netns exec \"$ns\" /bin/sh -c \"$*\"\n", strings.Join(known, ", "))
	return b.String()
}

// ip runs iproute2's ip and returns an error naming the command and its
// output.
func ip(ctx context.Context, args ...string) error {
	out, err := exec.CommandContext(ctx, "ip", args...).CombinedOutput()
	if err != nil {
		return fmt.Errorf("ip %s: %v: %s", strings.Join(args, " "), err, strings.TrimSpace(string(out)))
	}
	return nil
}

// Command returns a command that runs argv in host i's namespace.
func (h *Hosts) Command(i int, argv ...string) *exec.Cmd {
	return h.CommandContext(context.Background(), i, argv...)
}

// CommandContext is Command with a context that kills the command.
func (h *Hosts) CommandContext(ctx context.Context, i int, argv ...string) *exec.Cmd {
	return exec.CommandContext(ctx, "ip", append([]string{"netns", "exec", h.Host[i].Name}, argv...)...)
}

// Agent returns the path of the rsh agent for Open MPI's plm_rsh_agent.
func (h *Hosts) Agent() string { return h.agent }

// Hostfile writes (once per slots) and returns an Open MPI hostfile that
// names every host by address with slots slots.
func (h *Hosts) Hostfile(slots int) (string, error) {
	path := filepath.Join(h.dir, "hostfile-"+strconv.Itoa(slots))
	var b strings.Builder
	for _, hs := range h.Host {
		fmt.Fprintf(&b, "%s slots=%d\n", hs.Addr, slots)
	}
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		return "", fmt.Errorf("netns: writing the hostfile: %w", err)
	}
	return path, nil
}

// MPIRunArgs returns mpirun's options for a job of slots ranks per host:
// the hostfile, the agent instead of ssh (each orted started directly
// from host 0, no tree), Open MPI's out-of-band and byte transfer layers
// on Subnet, TCP as the only transport between ranks (btl tcp,self: no
// shared memory, even between ranks of one host: the namespaces share
// /dev/shm and the host name, so the vader segments of two hosts would
// get the same file names), no binding to cores, and ranks that yield
// their core while they wait.
func (h *Hosts) MPIRunArgs(slots int) ([]string, error) {
	hf, err := h.Hostfile(slots)
	if err != nil {
		return nil, err
	}
	args := []string{"-np", strconv.Itoa(slots * len(h.Host)), "--hostfile", hf, "--bind-to", "none",
		"--mca", "plm_rsh_agent", h.agent, "--mca", "plm_rsh_no_tree_spawn", "1",
		"--mca", "oob_tcp_if_include", Subnet,
		"--mca", "btl", "tcp,self", "--mca", "btl_tcp_if_include", Subnet,
		// The hosts share this machine's cores: a rank waiting for data must
		// yield its core (as Open MPI does by itself when a host has more
		// ranks than cores), or the kernel's TCP work waits behind ranks
		// that spin (1 MiB all-reduce, 4 ranks on 2 cores: 180 ms, 9 ms
		// yielding).
		"--mca", "mpi_yield_when_idle", "1"}
	if os.Geteuid() == 0 {
		args = append(args, "--allow-run-as-root")
	}
	return args, nil
}

// MPIRun returns the command that runs mpirun in host 0 with MPIRunArgs
// and then args (mpirun options, the program and its arguments): slots
// ranks on every host. Cancelling ctx kills mpirun; what it leaves in the
// hosts (orted, ranks) dies at Close.
func (h *Hosts) MPIRun(ctx context.Context, slots int, args ...string) (*exec.Cmd, error) {
	mpirun, err := exec.LookPath("mpirun")
	if err != nil {
		return nil, fmt.Errorf("netns: mpirun not found: apt-get install openmpi-bin libopenmpi3")
	}
	margs, err := h.MPIRunArgs(slots)
	if err != nil {
		return nil, err
	}
	cmd := h.CommandContext(ctx, 0, append(append([]string{mpirun}, margs...), args...)...)
	cmd.WaitDelay = 5 * time.Second
	return cmd, nil
}

// Pids returns the processes running in host i.
func (h *Hosts) Pids(i int) ([]int, error) {
	return nsPids(h.Host[i].Name)
}

func nsPids(name string) ([]int, error) {
	out, err := exec.Command("ip", "netns", "pids", name).CombinedOutput()
	if err != nil {
		return nil, fmt.Errorf("netns: ip netns pids %s: %v: %s", name, err, strings.TrimSpace(string(out)))
	}
	var pids []int
	sc := bufio.NewScanner(strings.NewReader(string(out)))
	for sc.Scan() {
		if p, err := strconv.Atoi(strings.TrimSpace(sc.Text())); err == nil {
			pids = append(pids, p)
		}
	}
	return pids, nil
}

// LinkBytes returns the bytes host i's interface has received and sent:
// what crossed between it and the other hosts (traffic between two
// processes of one host goes over its loopback instead).
func (h *Hosts) LinkBytes(i int) (uint64, error) {
	var sum uint64
	for _, f := range []string{"rx_bytes", "tx_bytes"} {
		// ip netns exec mounts the namespace's own /sys.
		out, err := h.Command(i, "cat", "/sys/class/net/"+iface+"/statistics/"+f).CombinedOutput()
		if err != nil {
			return 0, fmt.Errorf("netns: reading %s of host %d (%s): %v: %s", f, i, h.Host[i].Name, err, out)
		}
		v, err := strconv.ParseUint(strings.TrimSpace(string(out)), 10, 64)
		if err != nil {
			return 0, fmt.Errorf("netns: %s of host %d: %q", f, i, out)
		}
		sum += v
	}
	return sum, nil
}

// Close kills the processes left in the hosts and removes the namespaces,
// the bridge and the files. It may be called more than once.
func (h *Hosts) Close() error {
	h.once.Do(func() {
		var errs []error
		for _, hs := range h.Host {
			errs = append(errs, remove(hs.Name))
		}
		errs = append(errs, remove(h.sw))
		if h.dir != "" {
			errs = append(errs, os.RemoveAll(h.dir))
		}
		h.err = errors.Join(errs...)
	})
	return h.err
}

// remove kills what runs in namespace name, waits for it to be gone (a
// namespace lives on while a process is in it), and deletes it.
func remove(name string) error {
	if _, err := os.Stat(filepath.Join("/run/netns", name)); errors.Is(err, os.ErrNotExist) {
		return nil
	}
	deadline := time.Now().Add(5 * time.Second)
	for {
		pids, err := nsPids(name)
		if err != nil || len(pids) == 0 {
			break
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("netns: processes %v of namespace %s survived SIGKILL for 5 s", pids, name)
		}
		for _, p := range pids {
			syscall.Kill(p, syscall.SIGKILL)
		}
		time.Sleep(20 * time.Millisecond)
	}
	if err := ip(context.Background(), "netns", "del", name); err != nil {
		return fmt.Errorf("netns: removing host namespace: %w", err)
	}
	return nil
}

// RemoveStale removes the namespaces (and their processes) that a
// process of this package made and left behind when it died before its
// Close; namespaces of live processes are left alone. New calls it.
func RemoveStale() error {
	entries, err := os.ReadDir("/run/netns")
	if err != nil {
		return nil // no namespaces at all
	}
	var errs []error
	for _, e := range entries {
		m := staleName.FindStringSubmatch(e.Name())
		if m == nil {
			continue
		}
		pid, _ := strconv.Atoi(m[1])
		if err := syscall.Kill(pid, 0); err == nil || errors.Is(err, syscall.EPERM) {
			continue // its maker still runs
		}
		errs = append(errs, remove(e.Name()))
	}
	return errors.Join(errs...)
}
