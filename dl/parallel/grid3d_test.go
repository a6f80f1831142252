package parallel_test

import (
	"fmt"
	"math"
	"testing"

	"github.com/dlbd/dlbd/dl"
	"github.com/dlbd/dlbd/dl/dist"
	"github.com/dlbd/dlbd/dl/nn"
	"github.com/dlbd/dlbd/dl/parallel"
)

// TestGrid3DMatchesDense runs a 4-block Transformer on 8 ranks as
// DP 2 × TP 2 × PP 2 and compares the loss and every gradient with one
// device on the whole batch.
func TestGrid3DMatchesDense(t *testing.T) {
	const d, heads, seq, batch, nblocks = 8, 2, 3, 8, 4
	cfg := nn.BlockConfig{Dim: d, Heads: heads, InitConfig: nn.InitConfig{DType: dl.Float64, Generator: dl.NewGenerator(31)}}
	blocks := make([]*nn.Block, nblocks)
	mods := make([]nn.Module, nblocks)
	for i := range blocks {
		blocks[i] = nn.NewBlock(cfg)
		mods[i] = blocks[i]
	}
	o := dl.Options{DType: dl.Float64, Generator: dl.NewGenerator(32)}
	x, y := o.Randn(batch, seq, d), o.Randn(batch, seq, d)
	dense := dl.MSE(nn.NewSequential(mods...).Forward(x), y)
	dense.Backward()
	for _, sched := range []parallel.Schedule{parallel.GPipe, parallel.OneFOneB} {
		t.Run(fmt.Sprintf("schedule=%v", sched), func(t *testing.T) {
			losses := make([]float64, 8)
			err := dist.Run(8, func(r *dist.Rank) error {
				g, err := parallel.NewGrid3D(blocks, r, parallel.Grid3DConfig{TP: 2, PP: 2,
					Pipeline: parallel.PipelineConfig{Schedule: sched, MicroBatches: 2}})
				if err != nil {
					return err
				}
				l, err := g.Step(x, y)
				if err != nil {
					return err
				}
				losses[r.Rank()] = l
				tp, _, pp := g.Grid.Coords()
				for j, tb := range g.Blocks {
					b := blocks[pp*2+j]
					k := d / 2
					qkv := []int{tp * k, d + tp*k, 2*d + tp*k}
					checkClose(t, "3D qkv weight gradient", tb.Attn.QKV.Weight.Grad(), rowBlocks(b.QKV.Weight.Grad(), qkv, k))
					checkClose(t, "3D proj weight gradient", tb.Attn.Proj.Weight.Grad(), colBlock(b.Proj.Weight.Grad(), tp*k, k))
					fc2 := b.MLP.Modules[2].(*nn.Linear)
					checkClose(t, "3D fc2 weight gradient", tb.MLP.FC2.Weight.Grad(), colBlock(fc2.Weight.Grad(), tp*4*k, 4*k))
					checkClose(t, "3D ln1 weight gradient", tb.LN1.Weight.Grad(), b.LN1.Weight.Grad())
				}
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			// The last stage's ranks (pp = 1: world ranks 4..7) hold their
			// replica's loss; the two replicas' mean is the batch loss.
			mean := (losses[4] + losses[6]) / 2
			if math.Abs(mean-dense.Item()) > 1e-12 || losses[4] != losses[5] {
				t.Errorf("3D losses %v; want replicas averaging to the dense loss %v", losses, dense.Item())
			}
		})
	}
}
