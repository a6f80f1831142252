package data_test

import (
	"testing"

	"github.com/dlbd/dlbd/dl"
	"github.com/dlbd/dlbd/dl/data"
	"github.com/dlbd/dlbd/dl/nn"
	"github.com/dlbd/dlbd/dl/optim"
)

// studentLoss trains a width-w student (InputDim→w→w→1, ReLU) on d teacher
// samples with Adam and a cosine schedule, and returns its test MSE.
func studentLoss(t *testing.T, teacher *data.Teacher, w, d, steps int) float64 {
	t.Helper()
	x, y := teacher.Sample(d, 100)
	tx, ty := teacher.Sample(2000, 200)
	model := nn.NewMLP([]int{teacher.Config().InputDim, w, w, 1}, nn.MLPConfig{InitConfig: nn.InitConfig{Generator: dl.NewGenerator(uint64(w))}})
	opt := optim.NewAdam(nn.Parameters(model), optim.AdamConfig{})
	sched := optim.NewScheduler(opt, optim.WarmupCosine{Peak: 3e-3, Warmup: 20, Total: steps})
	loader := data.NewDataLoader(data.NewTensorDataset(x, y), data.DataLoaderConfig{BatchSize: 128, Shuffle: true, Seed: 1})
	for step, epoch := 0, 0; step < steps; epoch++ {
		for batch := range loader.Epoch(epoch) {
			opt.ZeroGrad()
			loss := dl.MSE(model.Forward(batch[0]), batch[1])
			loss.Backward()
			opt.Step()
			sched.Step()
			if step++; step == steps {
				break
			}
		}
	}
	var l float64
	dl.NoGrad(func() { l = dl.MSE(model.Forward(tx), ty).Item() })
	return l
}

// TestTeacherScaling checks the teacher task's documented behaviour on
// small runs: the test loss falls with the student's size N and with the
// amount of data D (the power laws the scaling-law notebook fits).
func TestTeacherScaling(t *testing.T) {
	if testing.Short() {
		t.Skip("trains four small students (a few seconds)")
	}
	teacher := data.NewTeacher(data.TeacherConfig{Seed: 1})
	small, large := studentLoss(t, teacher, 4, 4096, 800), studentLoss(t, teacher, 32, 4096, 800)
	if large > 0.6*small {
		t.Errorf("test MSE width 4: %.4f, width 32: %.4f; want the larger student clearly better", small, large)
	}
	few, many := studentLoss(t, teacher, 32, 64, 800), large
	if many > 0.6*few {
		t.Errorf("test MSE with 64 samples: %.4f, with 4096: %.4f; want more data clearly better", few, many)
	}
	t.Logf("test MSE: N-scaling w=4 %.4f, w=32 %.4f; D-scaling D=64 %.4f, D=4096 %.4f", small, large, few, many)
}
