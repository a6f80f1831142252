package mapreduce

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/dlbd/dlbd/internal/atomicfile"
)

// Config describes a DFS; the zero value (with Dir set) is 4 nodes, 1 MiB blocks and 3
// replicas.
type Config struct {
	Dir         string // where the nodes' disks and the name node's metadata live; required
	Nodes       int    // data nodes; default 4
	BlockSize   int64  // bytes per block (HDFS: 128 MiB); default 1 MiB
	Replication int    // replicas per block (HDFS dfs.replication); default 3, at most Nodes
}

// DFS is a small GFS/HDFS: files split into blocks, blocks replicated on nodes. It is safe
// for concurrent use.
type DFS struct {
	mu   sync.Mutex
	meta metadata
}

// metadata is the name node's state, saved as namenode.json.
type metadata struct {
	Config Config
	Files  map[string]*File
	Dead   []int // failed nodes
}

// File is a file of the DFS: its size and its blocks.
type File struct {
	Name   string
	Size   int64
	Blocks []Block
}

// Block is one block of a file: its byte range and the nodes that hold a replica.
type Block struct {
	Index    int
	Offset   int64
	Size     int64
	Replicas []int
}

// ErrNoReplica is wrapped when every replica of a block is on a dead node.
var ErrNoReplica = errors.New("no live replica")

// New creates an empty DFS in cfg.Dir (which must not hold one).
func New(cfg Config) (*DFS, error) {
	if cfg.Dir == "" {
		return nil, errors.New("mapreduce: Config.Dir is empty: give the directory for the nodes' disks")
	}
	if cfg.Nodes == 0 {
		cfg.Nodes = 4
	}
	if cfg.BlockSize == 0 {
		cfg.BlockSize = 1 << 20
	}
	if cfg.Replication == 0 {
		cfg.Replication = min(3, cfg.Nodes)
	}
	if cfg.Nodes < 1 || cfg.BlockSize < 1 || cfg.Replication < 1 || cfg.Replication > cfg.Nodes {
		return nil, fmt.Errorf("mapreduce: Config{Nodes: %d, BlockSize: %d, Replication: %d}: want Nodes ≥ 1, BlockSize ≥ 1 and 1 ≤ Replication ≤ Nodes", cfg.Nodes, cfg.BlockSize, cfg.Replication)
	}
	if _, err := os.Stat(filepath.Join(cfg.Dir, "namenode.json")); err == nil {
		return nil, fmt.Errorf("mapreduce: %s already holds a DFS: Open it, or remove the directory first", cfg.Dir)
	}
	d := &DFS{meta: metadata{Config: cfg, Files: map[string]*File{}}}
	for n := range cfg.Nodes {
		if err := os.MkdirAll(d.nodeDir(n), 0o755); err != nil {
			return nil, fmt.Errorf("mapreduce: %w", err)
		}
	}
	return d, d.save()
}

// Open opens the DFS that New created in dir (for example in an earlier notebook cell).
func Open(dir string) (*DFS, error) {
	data, err := os.ReadFile(filepath.Join(dir, "namenode.json"))
	if err != nil {
		return nil, fmt.Errorf("mapreduce: no DFS in %s (%w): create it with mapreduce.New", dir, err)
	}
	d := &DFS{}
	if err := json.Unmarshal(data, &d.meta); err != nil {
		return nil, fmt.Errorf("mapreduce: %s/namenode.json is corrupt (%w): remove the directory and create the DFS again", dir, err)
	}
	return d, nil
}

// Config returns the DFS's configuration with defaults filled in.
func (d *DFS) Config() Config { return d.meta.Config }

func (d *DFS) nodeDir(n int) string {
	return filepath.Join(d.meta.Config.Dir, fmt.Sprintf("node-%d", n))
}

func (d *DFS) replicaPath(name string, block, node int) string {
	return filepath.Join(d.nodeDir(node), fmt.Sprintf("%s.blk-%05d", strings.ReplaceAll(name, "/", "_"), block))
}

// save writes the name node's metadata; the caller holds d.mu or owns d.
func (d *DFS) save() error {
	data, err := json.MarshalIndent(d.meta, "", " ")
	if err != nil {
		return err
	}
	return atomicfile.WriteFile(filepath.Join(d.meta.Config.Dir, "namenode.json"), data, 0o644)
}

// Put stores the contents of r as file name: cut into BlockSize blocks at byte offsets
// (a line may span two blocks), each written to Replication live nodes.
func (d *DFS) Put(name string, r io.Reader) (*File, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	cfg := d.meta.Config
	live := d.liveNodes()
	if len(live) < cfg.Replication {
		return nil, fmt.Errorf("mapreduce: put %s: %d live nodes, fewer than the replication factor %d: Rereplicate cannot help; create a DFS with more nodes", name, len(live), cfg.Replication)
	}
	f := &File{Name: name}
	buf := make([]byte, cfg.BlockSize)
	for i := 0; ; i++ {
		n, err := io.ReadFull(r, buf)
		if n > 0 {
			// Simplification: replicas round-robin over live nodes, where HDFS puts the
			// first on the writer's node and the others on another rack.
			b := Block{Index: i, Offset: f.Size, Size: int64(n)}
			for k := range cfg.Replication {
				node := live[(i+k)%len(live)]
				if werr := os.WriteFile(d.replicaPath(name, i, node), buf[:n], 0o644); werr != nil {
					return nil, fmt.Errorf("mapreduce: put %s block %d on node %d: %w", name, i, node, werr)
				}
				b.Replicas = append(b.Replicas, node)
			}
			f.Blocks = append(f.Blocks, b)
			f.Size += int64(n)
		}
		if err == io.EOF || err == io.ErrUnexpectedEOF {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("mapreduce: put %s: %w", name, err)
		}
	}
	d.meta.Files[name] = f
	return f, d.save()
}

// File returns the metadata of file name.
func (d *DFS) File(name string) (*File, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	f, ok := d.meta.Files[name]
	if !ok {
		return nil, fmt.Errorf("mapreduce: no file %q in the DFS: Put it first", name)
	}
	return f, nil
}

func (d *DFS) liveNodes() []int {
	var out []int
	for n := range d.meta.Config.Nodes {
		if !slices.Contains(d.meta.Dead, n) {
			out = append(out, n)
		}
	}
	return out
}

// Alive reports whether node n has not failed.
func (d *DFS) Alive(n int) bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	return !slices.Contains(d.meta.Dead, n)
}

// Kill fails node n: its disk (every replica on it) is lost.
func (d *DFS) Kill(n int) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	if n < 0 || n >= d.meta.Config.Nodes {
		return fmt.Errorf("mapreduce: Kill(%d): nodes are 0..%d", n, d.meta.Config.Nodes-1)
	}
	if !slices.Contains(d.meta.Dead, n) {
		d.meta.Dead = append(d.meta.Dead, n)
	}
	if err := os.RemoveAll(d.nodeDir(n)); err != nil {
		return fmt.Errorf("mapreduce: %w", err)
	}
	return d.save()
}

// LiveReplicas returns the live nodes that hold block b of f.
func (d *DFS) LiveReplicas(b Block) []int {
	d.mu.Lock()
	defer d.mu.Unlock()
	var out []int
	for _, n := range b.Replicas {
		if !slices.Contains(d.meta.Dead, n) {
			out = append(out, n)
		}
	}
	return out
}

// Rereplicate copies every block that has fewer live replicas than the replication factor
// to live nodes that lack it, as the name node does after a node fails. It returns the
// number of copies made, and an error for blocks that have no live replica left.
func (d *DFS) Rereplicate() (int, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	live := d.liveNodes()
	copies := 0
	var lost []string
	for _, f := range d.meta.Files {
		for i := range f.Blocks {
			b := &f.Blocks[i]
			var have []int
			for _, n := range b.Replicas {
				if !slices.Contains(d.meta.Dead, n) {
					have = append(have, n)
				}
			}
			if len(have) == 0 {
				lost = append(lost, fmt.Sprintf("%s block %d", f.Name, i))
				continue
			}
			data, err := os.ReadFile(d.replicaPath(f.Name, i, have[0]))
			if err != nil {
				return copies, fmt.Errorf("mapreduce: %w", err)
			}
			for k := 0; len(have) < d.meta.Config.Replication && k < len(live); k++ {
				n := live[(i+k)%len(live)]
				if slices.Contains(have, n) {
					continue
				}
				if err := os.WriteFile(d.replicaPath(f.Name, i, n), data, 0o644); err != nil {
					return copies, fmt.Errorf("mapreduce: %w", err)
				}
				have = append(have, n)
				copies++
			}
			b.Replicas = have
		}
	}
	if err := d.save(); err != nil {
		return copies, err
	}
	if len(lost) > 0 {
		return copies, fmt.Errorf("mapreduce: %w for %s: those bytes are gone; keep Replication above the number of nodes that may fail", ErrNoReplica, strings.Join(lost, ", "))
	}
	return copies, nil
}

// readBlock reads block b of f from a live replica, preferring node prefer, and says which
// node served it.
func (d *DFS) readBlock(f *File, b Block, prefer int) ([]byte, int, error) {
	nodes := d.LiveReplicas(b)
	if len(nodes) == 0 {
		return nil, -1, fmt.Errorf("mapreduce: %s block %d: %w (replicas were on nodes %v, all dead): use a higher Replication, or Rereplicate before more nodes fail", f.Name, b.Index, ErrNoReplica, b.Replicas)
	}
	if i := slices.Index(nodes, prefer); i > 0 {
		nodes[0], nodes[i] = nodes[i], nodes[0]
	}
	data, err := os.ReadFile(d.replicaPath(f.Name, b.Index, nodes[0]))
	if err != nil {
		return nil, -1, fmt.Errorf("mapreduce: %s block %d on node %d: %w", f.Name, b.Index, nodes[0], err)
	}
	return data, nodes[0], nil
}

// Split is what a map task reads: the lines that start in one block.
type Split struct {
	Lines []string
	Node  int  // the node that served the block
	Local bool // the block was on the reader's node (no network in a real cluster)
	Extra int  // bytes read from neighbouring blocks to find the line boundaries
}

// ReadSplit returns the lines that start in block i of f, read from a live replica, on
// node from when it holds one. The byte before the block decides whether its first line
// starts there (else the previous split owns it), and a last line that runs past the block
// is finished from the next blocks: Hadoop's LineRecordReader rule, so every line is read
// by exactly one split.
func (d *DFS) ReadSplit(f *File, i, from int) (Split, error) {
	b := f.Blocks[i]
	data, node, err := d.readBlock(f, b, from)
	if err != nil {
		return Split{}, err
	}
	s := Split{Node: node, Local: node == from}
	start := 0
	if i > 0 {
		prev, _, err := d.readBlock(f, f.Blocks[i-1], from)
		if err != nil {
			return Split{}, err
		}
		s.Extra++
		if prev[len(prev)-1] != '\n' {
			nl := bytes.IndexByte(data, '\n')
			if nl < 0 {
				return s, nil // the whole block is inside a line owned by an earlier split
			}
			start = nl + 1
		}
	}
	text := data[start:]
	for j := i + 1; len(text) > 0 && text[len(text)-1] != '\n' && j < len(f.Blocks); j++ {
		next, _, err := d.readBlock(f, f.Blocks[j], from)
		if err != nil {
			return Split{}, err
		}
		if nl := bytes.IndexByte(next, '\n'); nl >= 0 {
			next = next[:nl+1]
		}
		s.Extra += len(next)
		text = append(text[:len(text):len(text)], next...)
	}
	s.Lines = strings.Split(strings.TrimSuffix(string(text), "\n"), "\n")
	if len(text) == 0 {
		s.Lines = nil
	}
	return s, nil
}
