package dist

import (
	"encoding/binary"
	"fmt"
	"net"
	"os"
	"strconv"
	"time"

	"github.com/dlbd/dlbd/dl"
	"github.com/dlbd/dlbd/dl/dist/internal/store"
)

// The nccl backend: one process per GPU, started by `dlbd run --backend
// nccl` (torchrun's environment: RANK, WORLD_SIZE, LOCAL_RANK,
// MASTER_ADDR, MASTER_PORT). Rank 0 makes the communicator's ncclUniqueId
// and passes it through the launcher's rendezvous store; the call check
// travels through the store too. Tensor collectives on the rank's GPU go
// straight to NCCL (gpu.go); slice collectives of host memory are staged
// through the GPU (NCCL reduces device memory only).
//
// Simplification: the store keeps every key it was given (a few words per
// collective); PyTorch's TCPStore does the same for its barriers.
//
// Course: "Data Parallelism (DP)" (NCCL is what DDP uses on GPUs).
type ncclBackend struct {
	kv    *store.Client
	name  string // the group's name: the prefix of its keys
	n, me int
	dev   dl.Device
	comm  *dl.NCCLComm
	chk   checker
	sent  map[int]int // messages sent to each peer, for the headers' keys
	got   map[int]int // messages received from each peer
	world bool
	cfg   Config
}

// newNCCLWorld joins the job's NCCL communicator.
func newNCCLWorld(cfg Config) (*Group, error) {
	rank, size, err := launchedRank(NCCL)
	if err != nil {
		return nil, err
	}
	local, err := envInt("LOCAL_RANK", rank)
	if err != nil {
		return nil, err
	}
	if err := checkSize(NCCL, cfg.WorldSize, size); err != nil {
		return nil, err
	}
	dev := dl.CUDA(local)
	if cfg.Devices != nil {
		if len(cfg.Devices) != size {
			return nil, fmt.Errorf("dist: New with %d Devices for a job of %d ranks", len(cfg.Devices), size)
		}
		dev = cfg.Devices[rank]
	}
	addr := net.JoinHostPort(os.Getenv("MASTER_ADDR"), os.Getenv("MASTER_PORT"))
	kv, err := store.Dial(addr, cfg.timeout()+10*time.Second)
	if err != nil {
		return nil, fmt.Errorf("dist: nccl backend, rank %d: %w", rank, err)
	}
	be := &ncclBackend{kv: kv, name: "world", n: size, me: rank, dev: dev, world: true, cfg: cfg}
	if err := be.join(); err != nil {
		kv.Close()
		return nil, err
	}
	g := newProcessWorld(cfg, be, rank, size, dev)
	g.gpu = &gpuComm{comm: be.comm}
	return g, nil
}

// join makes the communicator: rank 0 of the group makes the id, the
// others wait for it in the store.
func (b *ncclBackend) join() error {
	b.sent, b.got = map[int]int{}, map[int]int{}
	b.chk = checker{net: storeCheckNet{kv: b.kv, name: b.name, me: b.me}, n: b.n, me: b.me, timeout: b.cfg.timeout()}
	key := "nccl-id/" + b.name
	var id dl.NCCLUniqueID
	if b.me == 0 {
		var err error
		if id, err = dl.NewNCCLUniqueID(); err != nil {
			return fmt.Errorf("dist: nccl backend: %w", err)
		}
		if err := b.kv.Set(key, id[:]); err != nil {
			return err
		}
	} else {
		v, ok, err := b.kv.Wait(key, b.cfg.timeout())
		if err != nil {
			return err
		}
		if !ok || len(v) != len(id) {
			return &TimeoutError{Group: b.name, Call: "ncclCommInitRank (the unique id)", Missing: []int{0}, Waited: b.cfg.timeout()}
		}
		copy(id[:], v)
	}
	comm, err := dl.NewNCCLCommRank(b.dev, id, b.me, b.n)
	if err != nil {
		return fmt.Errorf("dist: nccl backend: %w", err)
	}
	b.comm = comm
	return nil
}

func (b *ncclBackend) check(r *Rank, d desc) (int64, error) { return b.chk.check(r, d) }

func (b *ncclBackend) allReduce(c *call, buf hostBuf, op Op) error {
	return stage(b.dev, func(ts []*dl.Tensor) error { return b.comm.AllReduce(b.me, ts[0], ncclOpOf[op]) }, buf)
}

func (b *ncclBackend) reduceScatter(c *call, out, in hostBuf, op Op) error {
	return stage(b.dev, func(ts []*dl.Tensor) error { return b.comm.ReduceScatter(b.me, ts[0], ts[1], ncclOpOf[op]) }, out, in)
}

func (b *ncclBackend) allGather(c *call, out, in hostBuf) error {
	return stage(b.dev, func(ts []*dl.Tensor) error { return b.comm.AllGather(b.me, ts[0], ts[1]) }, out, in)
}

func (b *ncclBackend) broadcast(c *call, buf hostBuf, root int) error {
	return stage(b.dev, func(ts []*dl.Tensor) error { return b.comm.Broadcast(b.me, ts[0], root) }, buf)
}

func (b *ncclBackend) reduce(c *call, buf hostBuf, root int, op Op) error {
	return stage(b.dev, func(ts []*dl.Tensor) error { return b.comm.Reduce(b.me, ts[0], root, ncclOpOf[op]) }, buf)
}

// barrier all-reduces one value: NCCL has no barrier of its own.
func (b *ncclBackend) barrier(c *call) error {
	one := []float32{1}
	return b.allReduce(c, bufOf(one), Sum)
}

// send writes a header (count, element size) to the store, then sends
// with NCCL; recv checks the header first, as the in-process Recv checks
// sizes, so that mismatched programs get an error instead of a hang.
func (b *ncclBackend) send(r *Rank, buf hostBuf, dst int) error {
	k := b.sent[dst]
	b.sent[dst]++
	hdr := binary.BigEndian.AppendUint64(binary.BigEndian.AppendUint64(nil, uint64(buf.n)), uint64(buf.size))
	if err := b.kv.Set(fmt.Sprintf("p2p/%s/%d/%d/%d", b.name, b.me, dst, k), hdr); err != nil {
		return err
	}
	return stage(b.dev, func(ts []*dl.Tensor) error { return b.comm.Send(b.me, ts[0], dst) }, buf)
}

func (b *ncclBackend) recv(r *Rank, buf hostBuf, src int) error {
	k := b.got[src]
	b.got[src]++
	hdr, ok, err := b.kv.Wait(fmt.Sprintf("p2p/%s/%d/%d/%d", b.name, src, b.me, k), r.g.w.timeout)
	if err != nil {
		return err
	}
	if !ok || len(hdr) != 16 {
		return &TimeoutError{Group: b.name, Call: "recv", Missing: []int{r.g.members[src]}, Waiting: []int{r.state.world}, Waited: r.g.w.timeout}
	}
	n, size := int(binary.BigEndian.Uint64(hdr)), int(binary.BigEndian.Uint64(hdr[8:]))
	if n != buf.n || size != int(buf.size) {
		return recvSizeError(r, src, n, size, buf)
	}
	return stage(b.dev, func(ts []*dl.Tensor) error { return b.comm.Recv(b.me, ts[0], src) }, buf)
}

// abort tells every launcher through the store, which kill the job.
func (b *ncclBackend) abort(cause error) {
	fmt.Fprintf(os.Stderr, "%v\ndist: rank %d aborts the NCCL job\n", cause, b.me)
	b.kv.Set(AbortKey, []byte(cause.Error()))
	b.comm.Abort()
}

// AbortKey is the store key a failed rank sets; launchers watch it.
const AbortKey = "abort"

func (b *ncclBackend) close() error {
	err := b.comm.Close()
	if b.world {
		if cerr := b.kv.Close(); err == nil {
			err = cerr
		}
	}
	return err
}

// split: every rank posts (color, key, world rank); each then computes its
// group as MPI_Comm_split does, and the group's first rank makes its id.
func (b *ncclBackend) split(c *call, color, key int) (backend, []int, error) {
	base := fmt.Sprintf("split/%s/%d/", b.name, c.seq)
	if err := b.kv.Set(base+strconv.Itoa(b.me), []byte(fmt.Sprintf("%d %d %d", color, key, c.r.state.world))); err != nil {
		return nil, nil, err
	}
	colors, keys, worlds := make([]int, b.n), make([]int, b.n), make([]int, b.n)
	for q := 0; q < b.n; q++ {
		v, ok, err := b.kv.Wait(base+strconv.Itoa(q), b.cfg.timeout())
		if err != nil {
			return nil, nil, err
		}
		if !ok {
			return nil, nil, &TimeoutError{Group: b.name, Call: "split", Missing: []int{q}, Waited: b.cfg.timeout()}
		}
		fmt.Sscan(string(v), &colors[q], &keys[q], &worlds[q])
	}
	if color < 0 {
		return nil, nil, nil
	}
	qs := splitOrder(colors, keys, color)
	members := make([]int, len(qs))
	me := 0
	for i, q := range qs {
		members[i] = worlds[q]
		if q == b.me {
			me = i
		}
	}
	sub := &ncclBackend{kv: b.kv, name: fmt.Sprintf("%s%d", base, color), n: len(qs), me: me, dev: b.dev, cfg: b.cfg}
	if err := sub.join(); err != nil {
		return nil, nil, err
	}
	return sub, members, nil
}

// storeCheckNet carries the check's words through the launcher's store
// (the nccl backend): rank q of group name posts its descriptor
// under chk/name/seq/q, rank 0 its verdicts under vrd/name/seq/q.
type storeCheckNet struct {
	kv   *store.Client
	name string // the group's name: the prefix of its keys
	me   int    // this process's rank in the group
}

func (s storeCheckNet) key(kind string, seq int64, q int) string {
	return fmt.Sprintf("%s/%s/%d/%d", kind, s.name, seq, q)
}

func (s storeCheckNet) toRoot(seq int64, w []int64) (waiter, error) {
	return nil, s.kv.Set(s.key("chk", seq, s.me), int64Bytes(w))
}

func (s storeCheckNet) fromRoot(seq int64, w []int64) (waiter, error) {
	return &storeWaiter{kv: s.kv, key: s.key("vrd", seq, s.me), into: w}, nil
}

func (s storeCheckNet) fromRank(seq int64, q int, w []int64) (waiter, error) {
	return &storeWaiter{kv: s.kv, key: s.key("chk", seq, q), into: w}, nil
}

func (s storeCheckNet) toRank(seq int64, q int, w []int64) error {
	return s.kv.Set(s.key("vrd", seq, q), int64Bytes(w))
}

func int64Bytes(w []int64) []byte {
	var b []byte
	for _, x := range w {
		b = binary.BigEndian.AppendUint64(b, uint64(x))
	}
	return b
}

// storeWaiter polls one key of the store.
type storeWaiter struct {
	kv   *store.Client
	key  string
	into []int64
}

func (w *storeWaiter) done() (bool, error) {
	v, ok, err := w.kv.Get(w.key)
	if err != nil || !ok {
		return false, err
	}
	for i := range w.into {
		if 8*i+8 <= len(v) {
			w.into[i] = int64(binary.BigEndian.Uint64(v[8*i:]))
		}
	}
	return true, nil
}

func (w *storeWaiter) cancel() {}
