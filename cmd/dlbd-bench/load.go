package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"runtime"
)

// spinFlag is the hidden argument that makes dlbd-bench a competitor: a
// process that keeps one core busy until it is killed, like a browser tab
// or a video call on a student's laptop.
const spinFlag = "-dlbd-bench-spin"

// spin keeps one core busy forever.
func spin() {
	runtime.GOMAXPROCS(1)
	x := uint64(1)
	for {
		x = x*6364136223846793005 + 1442695040888963407 // an LCG step the compiler cannot drop
		if x == 0 {
			fmt.Println(x)
		}
	}
}

// competitors are the busy processes of -load, started before the first
// round and stopped after the last.
type competitors struct{ cmds []*exec.Cmd }

// startCompetitors starts n copies of this program in spin mode, pinned to
// nothing (the kernel's scheduler places them, as it would a laptop's
// other programs).
func startCompetitors(ctx context.Context, n int) (*competitors, error) {
	self, err := os.Executable()
	if err != nil {
		return nil, fmt.Errorf("dlbd-bench: -load: finding this program to start competitors: %w", err)
	}
	c := &competitors{}
	for range n {
		cmd := exec.CommandContext(ctx, self, spinFlag)
		if err := cmd.Start(); err != nil {
			c.stop()
			return nil, fmt.Errorf("dlbd-bench: -load: starting a competing process: %w", err)
		}
		c.cmds = append(c.cmds, cmd)
	}
	return c, nil
}

// stop kills the competitors and waits for them.
func (c *competitors) stop() {
	if c == nil {
		return
	}
	for _, cmd := range c.cmds {
		cmd.Process.Kill()
		cmd.Wait()
	}
	c.cmds = nil
}
