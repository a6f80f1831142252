package mpi

import (
	"os"
	"strings"
	"sync"

	"github.com/ebitengine/purego"
)

// The C functions, bound by Load. Handles (MPI_Comm, MPI_Datatype, MPI_Op,
// MPI_Request, MPI_Errhandler) are pointers in Open MPI: uintptr here.
var (
	mpiInitThread     func(argc, argv uintptr, required int32, provided *int32) int32
	mpiInitialized    func(flag *int32) int32
	mpiFinalized      func(flag *int32) int32
	mpiFinalize       func() int32
	mpiAbort          func(comm uintptr, code int32) int32
	mpiCommRank       func(comm uintptr, rank *int32) int32
	mpiCommSize       func(comm uintptr, size *int32) int32
	mpiCommSplit      func(comm uintptr, color, key int32, out *uintptr) int32
	mpiCommFree       func(comm *uintptr) int32
	mpiCommSetErrh    func(comm, errh uintptr) int32
	mpiAllreduce      func(send, recv uintptr, n int32, dt, op, comm uintptr) int32
	mpiReduce         func(send, recv uintptr, n int32, dt, op uintptr, root int32, comm uintptr) int32
	mpiReduceScatterB func(send, recv uintptr, n int32, dt, op, comm uintptr) int32
	mpiAllgather      func(send uintptr, sn int32, sdt, recv uintptr, rn int32, rdt, comm uintptr) int32
	mpiBcast          func(buf uintptr, n int32, dt uintptr, root int32, comm uintptr) int32
	mpiBarrier        func(comm uintptr) int32
	mpiSend           func(buf uintptr, n int32, dt uintptr, dst, tag int32, comm uintptr) int32
	mpiRecv           func(buf uintptr, n int32, dt uintptr, src, tag int32, comm uintptr, st *Status) int32
	mpiProbe          func(src, tag int32, comm uintptr, st *Status) int32
	mpiIprobe         func(src, tag int32, comm uintptr, flag *int32, st *Status) int32
	mpiGetCount       func(st *Status, dt uintptr, n *int32) int32
	mpiIsend          func(buf uintptr, n int32, dt uintptr, dst, tag int32, comm uintptr, req *uintptr) int32
	mpiIrecv          func(buf uintptr, n int32, dt uintptr, src, tag int32, comm uintptr, req *uintptr) int32
	mpiTest           func(req *uintptr, flag *int32, st *Status) int32
	mpiCancel         func(req *uintptr) int32
	mpiRequestFree    func(req *uintptr) int32
	mpiErrorString    func(code int32, buf *byte, n *int32) int32
	mpiLibVersion     func(buf *byte, n *int32) int32
)

var functions = []struct {
	fn   any
	name string
}{
	{&mpiInitThread, "MPI_Init_thread"}, {&mpiInitialized, "MPI_Initialized"}, {&mpiFinalized, "MPI_Finalized"},
	{&mpiFinalize, "MPI_Finalize"}, {&mpiAbort, "MPI_Abort"}, {&mpiCommRank, "MPI_Comm_rank"},
	{&mpiCommSize, "MPI_Comm_size"}, {&mpiCommSplit, "MPI_Comm_split"}, {&mpiCommFree, "MPI_Comm_free"},
	{&mpiCommSetErrh, "MPI_Comm_set_errhandler"}, {&mpiAllreduce, "MPI_Allreduce"}, {&mpiReduce, "MPI_Reduce"},
	{&mpiReduceScatterB, "MPI_Reduce_scatter_block"}, {&mpiAllgather, "MPI_Allgather"}, {&mpiBcast, "MPI_Bcast"},
	{&mpiBarrier, "MPI_Barrier"}, {&mpiSend, "MPI_Send"}, {&mpiRecv, "MPI_Recv"}, {&mpiProbe, "MPI_Probe"}, {&mpiIprobe, "MPI_Iprobe"},
	{&mpiGetCount, "MPI_Get_count"}, {&mpiIsend, "MPI_Isend"}, {&mpiIrecv, "MPI_Irecv"}, {&mpiTest, "MPI_Test"},
	{&mpiCancel, "MPI_Cancel"}, {&mpiRequestFree, "MPI_Request_free"}, {&mpiErrorString, "MPI_Error_string"},
	{&mpiLibVersion, "MPI_Get_library_version"},
}

// Datatype is an MPI_Datatype; Op an MPI_Op.
type (
	Datatype uintptr
	Op       uintptr
)

// The predefined handles, resolved by Load: the addresses of Open MPI's
// global objects (MPI_FLOAT is &ompi_mpi_float, and so on).
var (
	Float32, Float64, Byte, Int64 Datatype
	Sum, Max, Min, Prod           Op
	world, commNull, errorsReturn uintptr
	requestNull                   uintptr
)

var globals = []struct {
	p    *uintptr
	name string
}{
	{(*uintptr)(&Float32), "ompi_mpi_float"}, {(*uintptr)(&Float64), "ompi_mpi_double"},
	{(*uintptr)(&Byte), "ompi_mpi_byte"}, {(*uintptr)(&Int64), "ompi_mpi_int64_t"},
	{(*uintptr)(&Sum), "ompi_mpi_op_sum"}, {(*uintptr)(&Max), "ompi_mpi_op_max"},
	{(*uintptr)(&Min), "ompi_mpi_op_min"}, {(*uintptr)(&Prod), "ompi_mpi_op_prod"},
	{&world, "ompi_mpi_comm_world"}, {&commNull, "ompi_mpi_comm_null"},
	{&errorsReturn, "ompi_mpi_errors_return"}, {&requestNull, "ompi_request_null"},
}

// inPlace is MPI_IN_PLACE: ((void *) 1) in Open MPI's mpi.h.
const inPlace = uintptr(1)

var (
	loadOnce sync.Once
	loadErr  error
	loadPath string
)

// candidates lists where to look: $DLBD_LIBMPI, then the sonames of
// Debian's libopenmpi3 (the loader's search path finds them).
func candidates() []string {
	var c []string
	if p := os.Getenv("DLBD_LIBMPI"); p != "" {
		c = append(c, p)
	}
	return append(c, "libmpi.so.40", "libmpi.so")
}

// Load opens libmpi and binds its functions and handles, once; later calls
// return the first result. It never panics.
func Load() error {
	loadOnce.Do(func() {
		le := &LoadError{Tried: candidates()}
		for _, c := range le.Tried {
			h, err := purego.Dlopen(c, purego.RTLD_NOW|purego.RTLD_GLOBAL)
			if err != nil {
				if le.Reason == "" {
					le.Reason = err.Error()
				}
				continue
			}
			if missing := bind(h); len(missing) > 0 {
				le.Tried, le.Reason = []string{c}, "not Open MPI's ABI (MPICH and others use integer handles); missing "+strings.Join(missing, ", ")
				loadErr = le
				return
			}
			loadPath = c
			return
		}
		loadErr = le
	})
	return loadErr
}

// bind registers every function and resolves every handle; it returns the
// names it could not find.
func bind(h uintptr) (missing []string) {
	for _, g := range globals {
		addr, err := purego.Dlsym(h, g.name)
		if err != nil || addr == 0 {
			missing = append(missing, g.name)
			continue
		}
		*g.p = addr
	}
	for _, f := range functions {
		addr, err := purego.Dlsym(h, f.name)
		if err != nil || addr == 0 {
			missing = append(missing, f.name)
			continue
		}
		purego.RegisterFunc(f.fn, addr)
	}
	return missing
}

// Path returns the library Load opened ("" before a successful Load).
func Path() string { return loadPath }

// LibraryVersion returns MPI_Get_library_version's text, e.g. "Open MPI
// v4.1.4, package: Debian OpenMPI, ...".
func LibraryVersion() (string, error) {
	if err := Load(); err != nil {
		return "", err
	}
	buf := make([]byte, 256) // MPI_MAX_LIBRARY_VERSION_STRING
	var n int32
	if err := check(mpiLibVersion(&buf[0], &n), "MPI_Get_library_version"); err != nil {
		return "", err
	}
	return strings.TrimRight(string(buf[:max(0, min(int(n), len(buf)))]), "\x00\n"), nil
}
