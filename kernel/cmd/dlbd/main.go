// Command dlbd installs, launches and checks the dlbd Jupyter kernel.
//
//	dlbd install [-repo DIR] [-jupyter-dir DIR] [-env KEY=VALUE]...   write the kernelspec
//	dlbd launch -repo DIR [-direct] [-mode M] CONNECTION_FILE         start the kernel behind its front end (kernel.json runs this)
//	dlbd warm [-repo DIR]                                             warm the build cache for stateful cells (setup runs it)
//	dlbd guard                                                        the kernel's guard process (started by launch)
//	dlbd notebooks [-out DIR] [-html DIR] NOTEBOOK...                 execute notebooks, report failed cells
//	dlbd doctor                                                       end-to-end check of the installed kernel
//	dlbd cell-latency [-kernel NAME] [-runs N] [-modes M,M]           time changed cells with the Big Data libraries linked
//	dlbd run --nproc-per-node N [--backend B] PROG [ARGS]...          start a distributed job, like torchrun
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"strings"

	"github.com/dlbd/dlbd/kernel/internal/proc"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	err := run(ctx, os.Args[1:])
	stop()
	if err != nil {
		var quiet exitError
		var status exitStatus
		switch {
		case errors.As(err, &status):
			os.Exit(int(status))
		case !errors.As(err, &quiet):
			fmt.Fprintln(os.Stderr, "dlbd:", err)
		}
		os.Exit(1)
	}
}

// exitError signals a failure that was already reported to the user.
type exitError struct{ msg string }

func (e exitError) Error() string { return e.msg }

const usage = `usage: dlbd <command> [flags]

commands:
  install       write the dlbd kernelspec (into <repo>/.jupyter by default)
  launch        start the kernel for a Jupyter connection file (used by kernel.json)
  notebooks     execute notebooks with nbconvert on the dlbd kernel and report failed cells
  doctor        check the installed kernel end to end and say what is wrong
  cell-latency  time changed cells with nothing, arrow-go, the Spark client or DuckDB linked, per mode
  warm          build a stateful cell once, so that notebooks' first cells are fast
  run           start a distributed job on N processes, like torchrun (dlbd run -h)`

func run(ctx context.Context, args []string) error {
	if len(args) == 0 {
		fmt.Fprintln(os.Stderr, usage)
		return exitError{"no command"}
	}
	switch cmd, rest := args[0], args[1:]; cmd {
	case "install":
		return runInstall(ctx, rest)
	case "launch":
		return runLaunch(ctx, rest)
	case "warm":
		return runWarm(ctx, rest)
	case "guard":
		return proc.RunGuard(os.Stdin)
	case "notebooks":
		return runNotebooks(ctx, rest)
	case "doctor":
		return runDoctor(ctx, rest)
	case "cell-latency":
		return runCellLatency(ctx, rest)
	case "run":
		return runRun(ctx, rest)
	case "help", "-h", "--help":
		fmt.Println(usage)
		return nil
	default:
		fmt.Fprintln(os.Stderr, usage)
		return exitError{"unknown command " + cmd}
	}
}

// envFlags collects repeated -env KEY=VALUE flags.
type envFlags map[string]string

func (e envFlags) String() string { return fmt.Sprint(map[string]string(e)) }

func (e envFlags) Set(s string) error {
	k, v, ok := strings.Cut(s, "=")
	if !ok || k == "" {
		return fmt.Errorf("want KEY=VALUE, got %q", s)
	}
	e[k] = v
	return nil
}

func newFlagSet(name string) *flag.FlagSet {
	return flag.NewFlagSet("dlbd "+name, flag.ContinueOnError)
}
