package plan

import (
	"strings"
	"testing"

	"github.com/dlbd/dlbd/dl"
)

func TestSimAccelerator(t *testing.T) {
	const i = 7 // a default Sim device that no other test of this package configures
	defer func() { _ = dl.ConfigureSim(i, dl.SimConfig{}) }()
	for _, tc := range []struct {
		profile string
		want    string // accelerator name; "" when an error is expected
		errWord string // in the error
	}{
		{profile: "H100 SXM", want: "H100"},
		{profile: "TPU v5p", want: "TPU v5p"},
		{profile: "no such chip", errWord: "profile of sim:7"},
		{profile: "", errWord: "no hardware profile"},
	} {
		t.Run("profile="+tc.profile, func(t *testing.T) {
			if err := dl.ConfigureSim(i, dl.SimConfig{Profile: tc.profile}); err != nil {
				t.Fatal(err)
			}
			a, err := SimAccelerator(dl.Sim(i))
			switch {
			case tc.want != "" && (err != nil || a.Name != tc.want):
				t.Errorf("SimAccelerator(sim:7) = %q, %v; want %q", a.Name, err, tc.want)
			case tc.want == "" && (err == nil || !strings.Contains(err.Error(), tc.errWord)):
				t.Errorf("SimAccelerator(sim:7) error = %v; want one containing %q", err, tc.errWord)
			}
		})
	}
	if _, err := SimAccelerator(dl.CPU); err == nil {
		t.Error("SimAccelerator(cpu) succeeded; want an error (not a Sim device)")
	}
}
