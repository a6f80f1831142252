package jupyter_test

import (
	"context"
	"fmt"
	"time"

	"github.com/dlbd/dlbd/kernel/jupyter"
	"github.com/dlbd/dlbd/kernel/protocol"
)

// ExampleStart starts the installed dlbd kernel, runs a Go cell and prints
// its output. It needs `make kernel`, so it is compiled but not run.
func ExampleStart() {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	c, err := jupyter.Start(ctx, jupyter.Options{KernelName: "dlbd"})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer c.Close()
	ex, err := c.Execute(ctx, "%%\nfmt.Println(\"hola\")")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Print(ex.Stdout())
}

// ExampleClient_MeasureLatency times a trivial cell after one warm-up run.
// It needs `make kernel`, so it is compiled but not run.
func ExampleClient_MeasureLatency() {
	ctx := context.Background()
	c, err := jupyter.Start(ctx, jupyter.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer c.Close()
	l, err := c.MeasureLatency(ctx, "%%\nfmt.Println(1)", jupyter.LatencyOptions{Runs: 5, Warmup: 1})
	fmt.Println(l, err)
}

// ExampleKernelSpec_Command shows how a kernelspec becomes a command line:
// {connection_file} is substituted and env is merged, expanding ${NAME}.
func ExampleKernelSpec_Command() {
	ks := &jupyter.KernelSpec{Spec: protocol.Spec{
		Argv: []string{"/repo/bin/dlbd", "launch", "{connection_file}"},
		Env:  map[string]string{"PATH": "/repo/bin:${PATH}"},
	}}
	argv, env := ks.Command("/tmp/kernel-1.json", []string{"PATH=/usr/bin"})
	fmt.Println(argv)
	fmt.Println(env)
	// Output:
	// [/repo/bin/dlbd launch /tmp/kernel-1.json]
	// [PATH=/repo/bin:/usr/bin]
}
