package dist

import (
	"slices"
	"sync"
)

// Transfer is one message of a link-based collective: at step Step, group
// rank From sent chunk Chunk (Bytes bytes) to group rank To, during Phase
// ("reduce-scatter", "all-gather", "reduce", "broadcast", "barrier").
type Transfer struct {
	Step     int
	From, To int
	Chunk    int // segment index for ring phases, -1 for whole buffers
	Bytes    int64
	Phase    string
}

// Record describes one executed collective of a group: what ran, how many
// steps it took and, for the link-based algorithms, every transfer (sorted
// by step, then sender). A notebook draws the ring from it; the cost model
// turns it into a time (cost.Replay).
type Record struct {
	Seq        int64     // position in the group's collective sequence
	Collective string    // "all-reduce", "broadcast", "reduce", "all-gather", "reduce-scatter", "barrier"
	Algorithm  Algorithm // Ring, Tree or SharedMemory
	Ranks      int       // group size n
	Bytes      int64     // S: bytes of each rank's buffer (the input for reduce-scatter, the output for all-gather)
	Steps      int       // communication steps (ring all-reduce: 2(n-1))
	Transfers  []Transfer
	// MemoryBytes is, for SharedMemory, the bytes the algorithm reads and
	// writes in main memory (2·n·S); 0 for link-based algorithms.
	MemoryBytes int64
}

// LinkStats is the traffic of one directed link since the group was made
// (or since ResetTraffic): collectives and Send/Recv together.
type LinkStats struct {
	From, To int   // group ranks
	Bytes    int64 // payload bytes sent
	Messages int64
}

// trafficLog collects each rank's transfers into per-collective records
// and keeps the most recent keep of them in a ring buffer.
type trafficLog struct {
	n    int
	keep int
	mu   sync.Mutex
	open map[int64]*pending
	done []Record // ring buffer: record i (oldest first) is done[(head+i)%keep], i < size
	size int
	head int // index of the oldest record
}

type pending struct {
	rec     Record
	flushed int
}

func (t *trafficLog) init(n, keep int) {
	if keep == 0 {
		keep = 256
	}
	t.n, t.keep, t.open = n, max(keep, 0), map[int64]*pending{}
}

// flush adds one rank's transfers to the record of meta.Seq; the record is
// complete once all n ranks have flushed.
func (t *trafficLog) flush(rank int, meta Record, tr []Transfer) {
	if t.keep == 0 {
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	p := t.open[meta.Seq]
	if p == nil {
		p = &pending{rec: meta}
		t.open[meta.Seq] = p
	}
	p.rec.Transfers = append(p.rec.Transfers, tr...)
	p.flushed++
	if p.flushed < t.n {
		return
	}
	delete(t.open, meta.Seq)
	slices.SortFunc(p.rec.Transfers, func(a, b Transfer) int {
		if a.Step != b.Step {
			return a.Step - b.Step
		}
		return a.From - b.From
	})
	t.push(p.rec)
}

// add stores a complete record (made by one rank for the whole group).
func (t *trafficLog) add(rec Record) {
	if t.keep == 0 {
		return
	}
	t.mu.Lock()
	t.push(rec)
	t.mu.Unlock()
}

// push appends rec, dropping the oldest record when full (t.mu held).
func (t *trafficLog) push(rec Record) {
	if t.done == nil {
		t.done = make([]Record, t.keep)
	}
	if t.size < t.keep {
		t.done[(t.head+t.size)%t.keep] = rec
		t.size++
		return
	}
	t.done[t.head] = rec
	t.head = (t.head + 1) % t.keep
}

// Records returns the records of the most recent completed collectives,
// oldest first (at most Config.KeepRecords of them).
func (g *Group) Records() []Record {
	g.log.mu.Lock()
	defer g.log.mu.Unlock()
	t := &g.log
	out := make([]Record, t.size)
	for i := range out {
		r := t.done[(t.head+i)%t.keep]
		r.Transfers = slices.Clone(r.Transfers)
		out[i] = r
	}
	return out
}

// LinkTraffic returns the traffic of every link that carried a message, in
// order of (From, To).
func (g *Group) LinkTraffic() []LinkStats {
	var out []LinkStats
	n := g.links.n
	for i := range g.links.tab {
		if l := g.links.tab[i].Load(); l != nil && l.msgs.Load() > 0 {
			out = append(out, LinkStats{From: i / n, To: i % n, Bytes: l.bytes.Load(), Messages: l.msgs.Load()})
		}
	}
	return out
}

// ResetTraffic zeroes the link counters and forgets the records. Call it
// while no collective is running.
func (g *Group) ResetTraffic() {
	for i := range g.links.tab {
		if l := g.links.tab[i].Load(); l != nil {
			l.bytes.Store(0)
			l.msgs.Store(0)
		}
	}
	g.log.mu.Lock()
	g.log.size, g.log.head = 0, 0
	g.log.mu.Unlock()
}
