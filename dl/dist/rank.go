package dist

import "fmt"

// Rank is one member's handle on a group: its rank in that group and the
// collectives it calls. Run gives each goroutine its world *Rank; sub-group
// calls give it more. A Rank belongs to one goroutine (the one Run started
// for it, or a goroutine that goroutine waits for); its collectives must not
// be called from two goroutines at once (use the Async variants to overlap).
type Rank struct {
	g     *Group
	rank  int
	state *rankState // shared by all handles of one world rank
}

// rankState is the per-goroutine state of one world rank, shared by its
// handles on every group.
type rankState struct {
	world int    // world rank
	queue *queue // async operations, in issue order (nil until the first one)
}

// Rank returns this member's rank in its group, 0..Size()-1
// (torch.distributed.get_rank(group)).
func (r *Rank) Rank() int { return r.rank }

// Size returns the number of ranks in the group.
func (r *Rank) Size() int { return len(r.g.members) }

// WorldRank returns this member's rank in the world group.
func (r *Rank) WorldRank() int { return r.state.world }

// Group returns the group this handle belongs to.
func (r *Rank) Group() *Group { return r.g }

// String returns e.g. "rank 1/4 of world".
func (r *Rank) String() string {
	return fmt.Sprintf("rank %d/%d of %s", r.rank, len(r.g.members), r.g.name)
}

// peer returns the world rank of group rank q.
func (r *Rank) peer(q int) int { return r.g.members[q] }

// checkPeer validates a group rank given by the user.
func (r *Rank) checkPeer(op string, q int, what string) error {
	if q < 0 || q >= len(r.g.members) {
		return fmt.Errorf("dist: %s on rank %d: %s %d out of range [0, %d) of group %s", op, r.rank, what, q, len(r.g.members), r.g.name)
	}
	return nil
}
