package main

import (
	"context"
	"fmt"
	"os"

	"github.com/dlbd/dlbd/kernel/doctor"
)

func runDoctor(ctx context.Context, args []string) error {
	fs := newFlagSet("doctor")
	name := fs.String("kernel", "dlbd", "kernelspec to check")
	runs := fs.Int("runs", 3, "timed runs of each cell after the first")
	if err := fs.Parse(args); err != nil {
		return err
	}
	r, err := doctor.Run(ctx, doctor.Options{KernelName: *name, Runs: *runs, Progress: os.Stdout})
	fmt.Println(r.Summary())
	if err != nil {
		return exitError{err.Error()}
	}
	return nil
}
