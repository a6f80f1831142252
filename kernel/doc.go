// Package kernel installs and launches the dlbd Jupyter kernel and gives notebooks the
// helpers they need to live with it.
//
// # Overview
//
// The kernel process is the stock GoNB binary (github.com/janpfeifer/gonb, pinned in
// go.mod and built into <repo>/bin by `make kernel`). Install writes a kernelspec named
// "dlbd" into a project-local Jupyter data directory (<repo>/.jupyter, found through
// JUPYTER_PATH), whose argv runs `bin/dlbd launch`. That command runs
// `gonb --kernel <connection file> --go_work=<repo> --raw_error` ([Command] builds the
// argv and the environment) behind the protocol shim of package kernel/shim, which
// repairs GoNB's departures from the Jupyter protocol; [LaunchDirect] runs GoNB alone.
// Because GoNB builds every cell inside a Go workspace that uses this module, a cell can
// import github.com/dlbd/dlbd/... packages with no manual step.
//
// Cells resolve imports offline: [KernelEnv] puts the local module cache first in GOPROXY
// (GOPROXY=file://$GOMODCACHE/cache/download,<your GOPROXY>), so the `go get` that GoNB
// runs before each cell finds this module's dependencies without the network.
//
// Each cell is compiled and run as a new process: declarations persist between cells,
// values do not. Cache keeps an expensive value (a trained model, a measurement) for the
// rest of the kernel session.
//
// # Errors
//
// Everything here touches files or processes and returns errors; nothing calls os.Exit or
// log.Fatal. Must turns an error into a panic, which GoNB shows as a cell error.
//
// # Concepts
//
//   - kernelspec: the kernel.json Jupyter reads to start a kernel
//     (https://jupyter-client.readthedocs.io/en/latest/kernels.html#kernelspecs).
//   - GONB_TMP_DIR: the per-session directory where GoNB builds cells; Cache stores values
//     under it, so they vanish with the session and never leak across runs.
package kernel
