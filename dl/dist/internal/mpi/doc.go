// Package mpi binds Open MPI's C library (libmpi.so.40, Debian's
// libopenmpi3) at run time with purego: no cgo, no MPI headers at build
// time, the same way dl/internal/cuda binds the CUDA libraries. dl/dist's
// mpi backend is its only user.
//
// # Overview
//
// Load opens the library once; Init calls MPI_Init_thread; World returns
// MPI_COMM_WORLD. A Comm has the collectives dist needs (Allreduce,
// ReduceScatterBlock, Allgather, Bcast, Reduce), point-to-point Send, Recv
// and Probe, the non-blocking Isend and Irecv with Test (for waits that
// must time out), Split (MPI_Comm_split) and Abort. Buffers are raw
// pointers with an element count and a Datatype, as in C.
//
// # Errors
//
// Every communicator gets MPI_ERRORS_RETURN, so a failing call returns an
// *Error (the function, the code and MPI_Error_string's text) instead of
// aborting the job; a missing or foreign library is a *LoadError that
// says what to install.
//
// # Concepts
//
// Open MPI's handles are pointers to the library's own global objects:
// MPI_COMM_WORLD is #defined as &ompi_mpi_comm_world, MPI_DOUBLE as
// &ompi_mpi_double, MPI_SUM as &ompi_mpi_op_sum. Without the header the
// binding asks the dynamic linker for those symbols' addresses
// (purego.Dlsym), and they are the handles. MPICH and its derivatives use
// integer handles instead (another ABI): Load refuses them by name.
//
// The library is opened RTLD_GLOBAL: Open MPI loads its components
// (transports, collectives) as plugins that resolve symbols of libmpi and
// libopen-pal through the global namespace.
//
// Threads: Go moves goroutines between OS threads, so the binding asks for
// MPI_THREAD_MULTIPLE and needs at least MPI_THREAD_SERIALIZED; dist
// makes one MPI call at a time per process (a rank's collectives are
// ordered, its async ones run on one queue).
//
// Course: "¿Por qué entrenamiento distribuido?" (MPI, the transport of HPC
// clusters).
package mpi
