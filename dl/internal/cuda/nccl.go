package cuda

import (
	"fmt"
	"runtime"
)

// NCCL (libnccl.so.2): collectives between GPUs over NVLink, PCIe or the
// network, bound at run time. Here one process drives several local GPUs
// (ncclCommInitAll), as dl/dist's in-process ranks do.
var (
	ncclGetVersion     func(v *int32) int32
	ncclCommInitAll    func(comms *uintptr, ndev int32, devlist *int32) int32
	ncclCommDestroy    func(c uintptr) int32
	ncclAllReduce      func(send, recv, count uint64, dt, op int32, comm, s uintptr) int32
	ncclAllGather      func(send, recv, sendCount uint64, dt int32, comm, s uintptr) int32
	ncclReduceScatter  func(send, recv, recvCount uint64, dt, op int32, comm, s uintptr) int32
	ncclBroadcast      func(send, recv, count uint64, dt, root int32, comm, s uintptr) int32
	ncclGroupStart     func() int32
	ncclGroupEnd       func() int32
	ncclGetErrorString func(r int32) string
	ncclGetLastError   func(comm uintptr) string
	ncclGetUniqueId    func(id *UniqueID) int32
	ncclCommInitRank   func(comm *uintptr, nranks int32, id UniqueID, rank int32) int32
	ncclCommAbort      func(c uintptr) int32
	ncclReduce         func(send, recv, count uint64, dt, op, root int32, comm, s uintptr) int32
	ncclSend           func(send, count uint64, dt, peer int32, comm, s uintptr) int32
	ncclRecv           func(recv, count uint64, dt, peer int32, comm, s uintptr) int32
)

var ncclSymbols = []symbol{
	sym(&ncclGetVersion, "ncclGetVersion"),
	sym(&ncclCommInitAll, "ncclCommInitAll"),
	sym(&ncclCommDestroy, "ncclCommDestroy"),
	sym(&ncclAllReduce, "ncclAllReduce"),
	sym(&ncclAllGather, "ncclAllGather"),
	sym(&ncclReduceScatter, "ncclReduceScatter"),
	sym(&ncclBroadcast, "ncclBroadcast"),
	sym(&ncclGroupStart, "ncclGroupStart"),
	sym(&ncclGroupEnd, "ncclGroupEnd"),
	sym(&ncclGetErrorString, "ncclGetErrorString"),
	opt(&ncclGetLastError, "ncclGetLastError"), // NCCL >= 2.13
	sym(&ncclGetUniqueId, "ncclGetUniqueId"),
	sym(&ncclCommInitRank, "ncclCommInitRank"),
	opt(&ncclCommAbort, "ncclCommAbort"),
	sym(&ncclReduce, "ncclReduce"),
	opt(&ncclSend, "ncclSend"), // NCCL >= 2.7
	opt(&ncclRecv, "ncclRecv"),
}

var nccl = &library{spec: specNCCL, syms: ncclSymbols}

// LoadNCCL loads NCCL (once); it needs no GPU.
func LoadNCCL() error { return nccl.load() }

// NCCLVersion returns NCCL's version code, e.g. 23203 for 2.32.3.
func NCCLVersion() (int, error) {
	if err := LoadNCCL(); err != nil {
		return 0, err
	}
	var v int32
	err := ncclCheck(ncclGetVersion(&v), "ncclGetVersion", "", 0)
	return int(v), err
}

// NCCLType is an ncclDataType_t.
type NCCLType int32

// ncclDataType_t values (nccl.h).
const (
	NCCLInt32    NCCLType = 2
	NCCLFloat16  NCCLType = 6
	NCCLFloat32  NCCLType = 7
	NCCLFloat64  NCCLType = 8
	NCCLBFloat16 NCCLType = 9 // NCCL >= 2.10
)

// RedOp is an ncclRedOp_t.
type RedOp int32

// ncclRedOp_t values (nccl.h).
const (
	Sum  RedOp = 0
	Prod RedOp = 1
	Max  RedOp = 2
	Min  RedOp = 3
	Avg  RedOp = 4 // NCCL >= 2.10
)

// Comm is one rank's NCCL communicator, tied to one device's context.
type Comm struct {
	h    uintptr
	Ctx  *Context
	Rank int // this communicator's rank: its index in CommInitAll's list
	Size int // number of ranks
}

// CommInitAll creates one communicator per context (rank i on ctxs[i]),
// all in this process, like ncclCommInitAll. Destroy each when done.
func CommInitAll(ctxs []*Context) ([]*Comm, error) {
	if err := LoadNCCL(); err != nil {
		return nil, err
	}
	if len(ctxs) == 0 {
		return nil, fmt.Errorf("cuda: CommInitAll needs at least one device")
	}
	devs := make([]int32, len(ctxs))
	for i, c := range ctxs {
		devs[i] = int32(c.Ordinal)
	}
	hs := make([]uintptr, len(ctxs))
	err := ctxs[0].Do(func() error {
		return ncclCheck(ncclCommInitAll(&hs[0], int32(len(hs)), &devs[0]), "ncclCommInitAll", fmt.Sprintf("devices %v", devs), 0)
	})
	if err != nil {
		return nil, err
	}
	out := make([]*Comm, len(ctxs))
	for i := range out {
		out[i] = &Comm{h: hs[i], Ctx: ctxs[i], Rank: i, Size: len(ctxs)}
	}
	return out, nil
}

// UniqueID is an ncclUniqueId: 128 opaque bytes that one rank makes
// (GetUniqueID) and every rank of a multi-process communicator passes to
// CommInitRank. It travels by value, as in C.
type UniqueID struct{ Internal [128]byte }

// GetUniqueID makes the id of a new communicator (ncclGetUniqueId).
func GetUniqueID() (UniqueID, error) {
	var id UniqueID
	if err := LoadNCCL(); err != nil {
		return id, err
	}
	return id, ncclCheck(ncclGetUniqueId(&id), "ncclGetUniqueId", "", 0)
}

// CommInitRank joins rank rank of an nranks communicator on ctx's device,
// one process (or thread) per rank, like ncclCommInitRank. It blocks until
// every rank has joined.
func CommInitRank(ctx *Context, id UniqueID, rank, nranks int) (*Comm, error) {
	if err := LoadNCCL(); err != nil {
		return nil, err
	}
	var h uintptr
	err := ctx.Do(func() error {
		return ncclCheck(ncclCommInitRank(&h, int32(nranks), id, int32(rank)), "ncclCommInitRank", fmt.Sprintf("rank %d/%d", rank, nranks), 0)
	})
	if err != nil {
		return nil, err
	}
	return &Comm{h: h, Ctx: ctx, Rank: rank, Size: nranks}, nil
}

// Abort ends the communicator's pending operations and frees it
// (ncclCommAbort), after a failure of another rank.
func (c *Comm) Abort() error {
	if ncclCommAbort == nil {
		return c.Destroy()
	}
	return c.Ctx.Do(func() error { return ncclCheck(ncclCommAbort(c.h), "ncclCommAbort", "", 0) })
}

// Reduce queues recv of root = op over ranks of send (ncclReduce).
func (c *Comm) Reduce(send, recv DevPtr, count, root int, t NCCLType, op RedOp, s Stream) error {
	return c.do("ncclReduce", count, func() int32 {
		return ncclReduce(uint64(send), uint64(recv), uint64(count), int32(t), int32(op), int32(root), c.h, uintptr(s))
	})
}

// Send queues count elements of buf to rank peer (ncclSend, NCCL >= 2.7).
func (c *Comm) Send(buf DevPtr, count, peer int, t NCCLType, s Stream) error {
	if ncclSend == nil {
		return fmt.Errorf("cuda: ncclSend needs NCCL 2.7 or newer")
	}
	return c.do("ncclSend", count, func() int32 { return ncclSend(uint64(buf), uint64(count), int32(t), int32(peer), c.h, uintptr(s)) })
}

// Recv queues the receipt of count elements from rank peer into buf.
func (c *Comm) Recv(buf DevPtr, count, peer int, t NCCLType, s Stream) error {
	if ncclRecv == nil {
		return fmt.Errorf("cuda: ncclRecv needs NCCL 2.7 or newer")
	}
	return c.do("ncclRecv", count, func() int32 { return ncclRecv(uint64(buf), uint64(count), int32(t), int32(peer), c.h, uintptr(s)) })
}

// Destroy frees the communicator.
func (c *Comm) Destroy() error {
	return c.Ctx.Do(func() error { return ncclCheck(ncclCommDestroy(c.h), "ncclCommDestroy", "", 0) })
}

// Group runs f, which issues collectives on several communicators from
// this goroutine, between ncclGroupStart and ncclGroupEnd.
//
// Trap: a collective's GPU kernel waits for the other ranks' kernels, and
// NCCL may block the calling thread on it. One goroutine that calls
// AllReduce on rank 0 and then on rank 1 can deadlock in the first call,
// unless both are inside one group, which NCCL launches as a whole at
// GroupEnd (NCCL's documented rule for one thread driving several GPUs). Group state is per OS thread, hence the lock. One
// goroutine per rank (dl/dist's model) needs no group.
func Group(f func() error) error {
	if err := LoadNCCL(); err != nil {
		return err
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	if err := ncclCheck(ncclGroupStart(), "ncclGroupStart", "", 0); err != nil {
		return err
	}
	ferr := f()
	if err := ncclCheck(ncclGroupEnd(), "ncclGroupEnd", "", 0); err != nil && ferr == nil {
		ferr = err
	}
	return ferr
}

// AllReduce queues recv = op over ranks of send (count elements) on s.
// send and recv may be the same buffer (in place).
func (c *Comm) AllReduce(send, recv DevPtr, count int, t NCCLType, op RedOp, s Stream) error {
	return c.do("ncclAllReduce", count, func() int32 {
		return ncclAllReduce(uint64(send), uint64(recv), uint64(count), int32(t), int32(op), c.h, uintptr(s))
	})
}

// AllGather queues recv[r*count:(r+1)*count] = send of rank r, for every r.
func (c *Comm) AllGather(send, recv DevPtr, count int, t NCCLType, s Stream) error {
	return c.do("ncclAllGather", count, func() int32 {
		return ncclAllGather(uint64(send), uint64(recv), uint64(count), int32(t), c.h, uintptr(s))
	})
}

// ReduceScatter queues recv (count elements) = this rank's slice of the
// op-reduction of every rank's send (Size*count elements).
func (c *Comm) ReduceScatter(send, recv DevPtr, count int, t NCCLType, op RedOp, s Stream) error {
	return c.do("ncclReduceScatter", count, func() int32 {
		return ncclReduceScatter(uint64(send), uint64(recv), uint64(count), int32(t), int32(op), c.h, uintptr(s))
	})
}

// Broadcast queues recv = root's send (count elements) on every rank.
func (c *Comm) Broadcast(send, recv DevPtr, count, root int, t NCCLType, s Stream) error {
	return c.do("ncclBroadcast", count, func() int32 {
		return ncclBroadcast(uint64(send), uint64(recv), uint64(count), int32(t), int32(root), c.h, uintptr(s))
	})
}

func (c *Comm) do(call string, count int, f func() int32) error {
	return c.Ctx.Do(func() error {
		return ncclCheck(f(), call, fmt.Sprintf("rank %d/%d on %s, %d elements", c.Rank, c.Size, c.Ctx.name(), count), c.h)
	})
}

// ncclResultNames names ncclResult_t values (nccl.h).
var ncclResultNames = map[int]string{
	1: "ncclUnhandledCudaError", 2: "ncclSystemError", 3: "ncclInternalError",
	4: "ncclInvalidArgument", 5: "ncclInvalidUsage", 6: "ncclRemoteError", 7: "ncclInProgress",
}

// ncclCheck turns an ncclResult_t into nil or an *Error; with a
// communicator, NCCL's last detailed message is added.
func ncclCheck(r int32, call, detail string, comm uintptr) error {
	if r == 0 {
		return nil
	}
	e := &Error{Lib: "nccl", Call: call, Detail: detail, Code: int(r), Name: ncclResultNames[int(r)]}
	if ncclGetErrorString != nil {
		e.Msg = ncclGetErrorString(r)
	}
	if ncclGetLastError != nil {
		if last := ncclGetLastError(comm); last != "" {
			e.Msg += " (" + last + ")"
		}
	}
	return e
}
