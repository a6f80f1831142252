package cuda

// LibraryInfo says whether one library loaded, and from where.
type LibraryInfo struct {
	Name string // "libcuda", "cuBLAS", "NVRTC", "NCCL"
	Path string // what was opened; "" if nothing was
	Err  error  // nil when loaded
}

// Libraries loads all four libraries (each once per process) and reports
// each one's outcome, for diagnostics ("why is there no GPU?").
func Libraries() []LibraryInfo {
	out := make([]LibraryInfo, 0, 4)
	for _, l := range []*library{driver, nvrtc, cublas, nccl} {
		err := l.load()
		out = append(out, LibraryInfo{Name: l.spec.display, Path: l.path, Err: err})
	}
	return out
}
