// Command dlbd-host is the process of a stateful kernel session: it loads
// each compiled cell as a plugin and runs it (see package
// kernel/stateful/host). The kernel builds and starts it; it is not for
// people to run.
//
// It links dl, its subpackages, viz and kernel, so that cells that use them
// load quickly and share one copy of their state, and the Big Data engines'
// implementations (engines.go).
package main

import (
	"context"
	"fmt"
	"os"
	"time"

	"github.com/janpfeifer/gonb/gonbui"

	"github.com/dlbd/dlbd/dl"
	_ "github.com/dlbd/dlbd/dl/amp"
	_ "github.com/dlbd/dlbd/dl/data"
	_ "github.com/dlbd/dlbd/dl/dist"
	"github.com/dlbd/dlbd/dl/dist/program"
	_ "github.com/dlbd/dlbd/dl/nn"
	_ "github.com/dlbd/dlbd/dl/optim"
	_ "github.com/dlbd/dlbd/dl/parallel"
	_ "github.com/dlbd/dlbd/dl/plan"
	"github.com/dlbd/dlbd/internal/resources"
	_ "github.com/dlbd/dlbd/kernel"
	"github.com/dlbd/dlbd/kernel/internal/cellpos"
	"github.com/dlbd/dlbd/kernel/stateful/host"
	"github.com/dlbd/dlbd/viz"
)

func main() {
	requests, replies := os.NewFile(3, "requests"), os.NewFile(4, "replies")
	if requests == nil || replies == nil {
		fmt.Fprintln(os.Stderr, "dlbd-host: started without the session's pipes (fds 3 and 4): the kernel starts this program, not people")
		os.Exit(2)
	}
	// program.Run builds the program for a cell's function in the session's
	// workspace (GONB_TMP_DIR, as for GoNB's programs), the only module
	// that can import the cells' packages.
	if dir := os.Getenv("GONB_TMP_DIR"); dir != "" {
		program.RegisterModule(cellpos.Module, dir)
	}
	err := host.Serve(host.Options{
		Requests: requests,
		Replies:  replies,
		Marker:   os.Getenv("DLBD_HOST_MARKER"),
		// dl's long operations (GEMM blocks, allocations, backward nodes,
		// optimizer steps, loader batches) stop at their next check with a
		// *dl.CanceledError once the cell's context is cancelled.
		BeforeCell: func(ctx context.Context) {
			dl.SetCancel(ctx)
			viz.BeginCell() // the cell's first chart sends the library to the page again
		},
		AfterCell: gonbui.Sync,
	})
	// The kernel closed the requests (a shutdown, a restart, %reset): close
	// what the cells' values still hold open on servers and files.
	if cerr := resources.CloseAll(3 * time.Second); cerr != nil {
		fmt.Fprintln(os.Stderr, "dlbd-host: closing what the cells left open:", cerr)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "dlbd-host:", err)
		os.Exit(1)
	}
}
