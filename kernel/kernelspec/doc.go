// Package kernelspec installs and launches the dlbd Jupyter kernel.
//
// # Overview
//
// [Install] writes a kernelspec named "dlbd" into a project-local Jupyter
// data directory (<repo>/.jupyter, found through JUPYTER_PATH), whose argv
// runs `bin/dlbd launch`. That command starts the kernel behind the
// kernel's front end (package kernel/frontend): the stateful executor (package
// kernel/stateful) for execute requests, and the stock GoNB binary
// (github.com/janpfeifer/gonb, pinned in go.mod and built into <repo>/bin
// by `make kernel`) for the process-per-cell mode and the rest of the
// protocol. [Command] builds GoNB's argv and environment
// (`gonb --kernel <connection file> --go_work=<repo> --raw_error`);
// [LaunchDirect] runs GoNB alone. Cells are built in a Go workspace that
// uses this module, so they import github.com/dlbd/dlbd/... packages with
// no manual step.
//
// Cells resolve imports offline: [KernelEnv] puts the local module cache
// first in GOPROXY (GOPROXY=file://$GOMODCACHE/cache/download,<your
// GOPROXY>), so a `go get` finds this module's dependencies without the
// network.
//
// # Errors
//
// Everything here touches files or processes and returns errors naming the
// fix (`make kernel`, installing Go); nothing calls os.Exit or log.Fatal.
//
// # Concepts
//
//   - kernelspec: the kernel.json Jupyter reads to start a kernel
//     (https://jupyter-client.readthedocs.io/en/latest/kernels.html#kernelspecs).
package kernelspec
