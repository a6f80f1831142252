package main

import (
	"context"
	"errors"
	"fmt"

	"github.com/dlbd/dlbd/dl/dist"
	"github.com/dlbd/dlbd/dl/dist/launch"
)

// runRun is `dlbd run`: torchrun's interface over dl/dist/launch.
//
//	dlbd run --nproc-per-node N [--nnodes M --node-rank R --master-addr A --master-port P]
//	         [--backend mpi|inprocess|nccl|tcp] prog.go|DIR|./binary [args...]
func runRun(ctx context.Context, args []string) error {
	fs := newFlagSet("run")
	var cfg launch.Config
	var backend string
	fs.IntVar(&cfg.NProcPerNode, "nproc-per-node", 1, "ranks on this node (torchrun --nproc_per_node)")
	fs.IntVar(&cfg.NNodes, "nnodes", 1, "number of nodes")
	fs.IntVar(&cfg.NodeRank, "node-rank", 0, "this node's index, 0..nnodes-1")
	fs.StringVar(&cfg.MasterAddr, "master-addr", "127.0.0.1", "address of node 0 (its launcher serves the rendezvous)")
	fs.IntVar(&cfg.MasterPort, "master-port", 29500, "port of node 0's rendezvous")
	fs.StringVar(&backend, "backend", "mpi", "dist backend of the ranks: mpi, inprocess, nccl (GPUs) or tcp (CPUs, any number of nodes; ranks listen on $DLBD_TCP_ADDR, else the address that reaches --master-addr)")
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "usage: dlbd run --nproc-per-node N [--nnodes M --node-rank R --master-addr A --master-port P] [--backend mpi|inprocess|nccl|tcp] prog.go|DIR|./binary [args...]")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() == 0 {
		fs.Usage()
		return exitError{"run: no program"}
	}
	cfg.Backend = dist.Backend(backend)
	err := launch.Run(ctx, cfg, fs.Arg(0), fs.Args()[1:]...)
	var f *launch.RankFailure
	if errors.As(err, &f) {
		return fmt.Errorf("run: %w", err)
	}
	return err
}
