package main

import (
	"context"
	"fmt"
	"os"
	"strconv"

	"github.com/dlbd/dlbd/kernel/frontend"
	"github.com/dlbd/dlbd/kernel/internal/proc"
	"github.com/dlbd/dlbd/kernel/kernelspec"
	"github.com/dlbd/dlbd/kernel/stateful"
)

// runLaunch starts the kernel for Jupyter: the stateful executor and GoNB
// behind the kernel's front end, or GoNB alone with -direct. It ignores ctx:
// SIGINT must reach the kernel as an interrupt, not stop the launcher (the
// front end forwards it).
func runLaunch(_ context.Context, args []string) error {
	fs := newFlagSet("launch")
	repo := fs.String("repo", "", "absolute root of the dlbd checkout")
	direct := fs.Bool("direct", false, "run GoNB alone, without the kernel's front end (for comparisons)")
	mode := fs.String("mode", os.Getenv("DLBD_MODE"), "the mode cells start in: stateful (values live on) or process (a process per cell, GoNB); default $DLBD_MODE, else stateful")
	maxMessage := fs.Int64("max-message", envInt64("DLBD_MAX_MESSAGE", frontend.DefaultMaxMessage), "largest message accepted from Jupyter, in bytes, checked while it is read (default $DLBD_MAX_MESSAGE, else 64 MiB)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *maxMessage <= 0 {
		return fmt.Errorf("launch: -max-message %d: want a positive number of bytes", *maxMessage)
	}
	if fs.NArg() != 1 {
		return fmt.Errorf("launch: want exactly one connection file argument, got %d", fs.NArg())
	}
	switch frontend.Mode(*mode) {
	case "", frontend.ModeStateful, frontend.ModeProcess:
	default:
		return fmt.Errorf("launch: -mode %q: want %s or %s", *mode, frontend.ModeStateful, frontend.ModeProcess)
	}
	o := kernelspec.LaunchOptions{RepoDir: *repo, ConnectionFile: fs.Arg(0)}
	if *direct {
		return kernelspec.LaunchDirect(o)
	}
	exe, err := os.Executable()
	if err != nil {
		return fmt.Errorf("launch: %w", err)
	}
	status, err := frontend.Run(context.Background(), frontend.Options{
		ConnectionFile: o.ConnectionFile,
		Command: func(connectionFile string) ([]string, []string, error) {
			inner := o
			inner.ConnectionFile = connectionFile
			return kernelspec.Command(inner, os.Environ())
		},
		Guard:      []string{exe, "guard"},
		MaxMessage: *maxMessage,
		Mode:       frontend.Mode(*mode),
		Executor: func(guard *proc.Guard, env []string) (frontend.Executor, error) {
			if err := stateful.Supported(env); err != nil {
				return nil, err
			}
			return stateful.New(stateful.Options{Repo: *repo, Env: env, Guard: guard, Log: os.Stderr, Trace: os.Getenv("DLBD_TRACE") == "1"})
		},
	})
	if err != nil {
		return err
	}
	if status != 0 {
		return exitStatus(status)
	}
	return nil
}

// envInt64 returns the integer in environment variable name, or def.
func envInt64(name string, def int64) int64 {
	if n, err := strconv.ParseInt(os.Getenv(name), 10, 64); err == nil {
		return n
	}
	return def
}

// exitStatus is the exit status of a kernel that ended with one; dlbd
// exits with it, saying nothing more (the kernel said what went wrong).
type exitStatus int

func (e exitStatus) Error() string { return fmt.Sprintf("kernel exited with status %d", int(e)) }
