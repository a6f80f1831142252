package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/dlbd/dlbd/internal/checkout"
	"github.com/dlbd/dlbd/kernel/kernelspec"
	"github.com/dlbd/dlbd/kernel/stateful"
)

// warmCell imports what notebooks import, so that building it puts every
// package into the build cache in the form plugins need (-dynlink), and
// the session's package index reads their export data once; the session
// also links its host program (with the Big Data engines) into the user's
// cache, where the notebooks' kernels find it up to date.
const warmCell = `import (
	"github.com/dlbd/dlbd/bigdata/columnar"
	"github.com/dlbd/dlbd/bigdata/duck"
	"github.com/dlbd/dlbd/bigdata/kafka"
	"github.com/dlbd/dlbd/bigdata/mapreduce"
	"github.com/dlbd/dlbd/bigdata/natsbroker"
	"github.com/dlbd/dlbd/bigdata/shards"
	"github.com/dlbd/dlbd/bigdata/spark"
	"github.com/dlbd/dlbd/bigdata/stream"
	"github.com/dlbd/dlbd/dl"
	"github.com/dlbd/dlbd/dl/amp"
	"github.com/dlbd/dlbd/dl/data"
	"github.com/dlbd/dlbd/dl/dist"
	"github.com/dlbd/dlbd/dl/nn"
	"github.com/dlbd/dlbd/dl/optim"
	"github.com/dlbd/dlbd/dl/parallel"
	"github.com/dlbd/dlbd/dl/plan"
	"github.com/dlbd/dlbd/facts"
	"github.com/dlbd/dlbd/kernel"
	"github.com/dlbd/dlbd/viz"
	"github.com/janpfeifer/gonb/gonbui"
)
%%
_, _, _, _, _, _, _ = dl.CPU, amp.Autocast, data.NewDataLoader, dist.Ring, nn.NewMLP, optim.NewSGD, parallel.NewDDP
_, _, _, _, _ = plan.TrainingFLOPs, facts.Accelerators, kernel.Context, viz.Init, gonbui.IsNotebook
_, _, _, _, _, _, _, _ = columnar.Sales, duck.Open, kafka.Connect, mapreduce.Run, natsbroker.Start, shards.New, spark.Connect, stream.Run
fmt.Println("warm")`

// runWarm runs one stateful cell, as a kernel would, to warm the build
// cache for the stateful mode (setup runs it; the first cell of a notebook
// then takes about a second instead of half a minute).
func runWarm(ctx context.Context, args []string) error {
	fs := newFlagSet("warm")
	repo := fs.String("repo", "", "root of the dlbd checkout (default: the one containing the working directory)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	root := *repo
	if root == "" {
		var err error
		if root, err = checkout.Find("."); err != nil {
			return err
		}
	}
	root, _ = filepath.Abs(root)
	env, err := kernelspec.LaunchEnv(os.Environ(), root, "")
	if err != nil {
		return err
	}
	if err := stateful.Supported(env); err != nil {
		fmt.Printf("warm: stateful cells are unavailable here (%v); notebooks will run each cell as a process\n", err)
		return nil
	}
	t0 := time.Now()
	s, err := stateful.New(stateful.Options{Repo: root, Env: env})
	if err != nil {
		return err
	}
	defer s.Close()
	out := &warmOutput{}
	res := s.Execute(ctx, warmCell, 1, out)
	if res.Status != "ok" {
		return fmt.Errorf("warm: the warm-up cell failed: %s: %s\n%s", res.EName, res.EValue, out.stderr.String())
	}
	fmt.Printf("warm: stateful cells ready (%.1f s)\n", time.Since(t0).Seconds())
	return nil
}

// warmOutput keeps the warm-up cell's stderr for an error message.
type warmOutput struct{ stderr strings.Builder }

func (o *warmOutput) Stream(name, text string) {
	if name == "stderr" {
		o.stderr.WriteString(text)
	}
}

func (o *warmOutput) Display(stateful.Display) {}
