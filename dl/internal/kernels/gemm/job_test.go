package gemm

import "testing"

func TestBlockDepth(t *testing.T) {
	for _, tc := range []struct{ k, want int }{
		{10, 16}, {256, 256}, {300, 304}, {320, 320}, {330, 176}, {784, 272}, {1024, 256}, {1100, 288}, {2048, 256},
	} {
		got := blockDepth(tc.k, 256)
		if got != tc.want {
			t.Errorf("blockDepth(%d, 256) = %d; want %d", tc.k, got, tc.want)
		}
		if got > maxDepth(256) {
			t.Errorf("blockDepth(%d, 256) = %d > maxDepth %d", tc.k, got, maxDepth(256))
		}
	}
}
