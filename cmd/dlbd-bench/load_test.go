package main

import (
	"context"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestMain lets the test binary be a competitor, as dlbd-bench is with
// spinFlag.
func TestMain(m *testing.M) {
	if len(os.Args) == 2 && os.Args[1] == spinFlag {
		spin()
	}
	os.Exit(m.Run())
}

// cpuTicks returns the user+system clock ticks of process pid.
func cpuTicks(t *testing.T, pid int) int {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		t.Skipf("no /proc: %v", err)
	}
	f := strings.Fields(string(b[strings.LastIndexByte(string(b), ')')+2:]))
	u, _ := strconv.Atoi(f[11]) // fields 14 and 15 of stat, after "pid (comm)"
	s, _ := strconv.Atoi(f[12])
	return u + s
}

// TestCompetitorsBurnAndStop starts two competitors, checks that they use
// the CPU and that stop ends them.
func TestCompetitorsBurnAndStop(t *testing.T) {
	c, err := startCompetitors(context.Background(), 2)
	if err != nil {
		t.Fatal(err)
	}
	defer c.stop()
	if len(c.cmds) != 2 {
		t.Fatalf("%d competitors; want 2", len(c.cmds))
	}
	deadline := time.Now().Add(20 * time.Second)
	for _, cmd := range c.cmds {
		for cpuTicks(t, cmd.Process.Pid) < 10 { // 0.1 s of CPU at 100 ticks/s
			if time.Now().After(deadline) {
				t.Fatalf("competitor %d used %d ticks in 20 s; it should keep a core busy", cmd.Process.Pid, cpuTicks(t, cmd.Process.Pid))
			}
			time.Sleep(50 * time.Millisecond)
		}
	}
	pids := []int{c.cmds[0].Process.Pid, c.cmds[1].Process.Pid}
	c.stop()
	for _, pid := range pids {
		if _, err := os.Stat("/proc/" + strconv.Itoa(pid)); err == nil {
			t.Errorf("competitor %d still exists after stop", pid)
		}
	}
	var none *competitors
	none.stop() // -load 0: nothing to stop
}
