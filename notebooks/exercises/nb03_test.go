package exercises

import (
	"math"
	"testing"
)

func TestGPUsFor30Days(t *testing.T) {
	gh := nb03Llama3GPUHours()
	if math.Abs(gh-6.4e6) > 0.1e6 {
		t.Fatalf("facts: Llama 3 70B took %g GPU-hours; the exercise says 6.4 million", gh)
	}
	reference := int(math.Round(gh / (30 * 24))) // GPU-hours ÷ (days × 24 hours)
	nb01Expect(t, "reference", GPUsFor30Days(reference), "right", "")
	nb01Expect(t, "round figure", GPUsFor30Days(9000), "right", "")
	nb01Expect(t, "days, not hours", GPUsFor30Days(int(gh/30)), "wrong", "cada día tiene 24")
	nb01Expect(t, "the course's 2,048", GPUsFor30Days(2048), "wrong", "cifra del curso")
	nb01Expect(t, "years on one GPU", GPUsFor30Days(730), "wrong", "una sola GPU")
	nb01Expect(t, "other", GPUsFor30Days(5000), "wrong", "GPU-horas ÷ (días × 24 horas)")
	nb01Expect(t, "negative", GPUsFor30Days(-5), "wrong", "negativo")
	nb01Expect(t, "blank", GPUsFor30Days(0), "blank", "cada día tiene 24")
}
