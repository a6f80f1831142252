package viz

import (
	"os/exec"
	"strings"
	"testing"
)

// TestAxisFormatterPowersOfTen runs the axis formatter under node: the ticks of a
// log axis are written alike (10³, 10⁴, 10⁵, never "10000" beside "10⁵").
func TestAxisFormatterPowersOfTen(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node not installed: cannot run the formatter's JavaScript")
	}
	fn := strings.TrimSuffix(strings.TrimPrefix(string(axisFormatter("num")), "__f__"), "__f__")
	script := "var f = (" + fn + ");\nconsole.log([10, 100, 1000, 1e4, 1e5, 1e-2, 0.5, 2500, 123456].map(f).join('|'));"
	out, err := exec.Command(node, "-e", script).CombinedOutput()
	if err != nil {
		t.Fatalf("node: %v\n%s", err, out)
	}
	got := strings.TrimSpace(string(out))
	want := "10|100|10³|10⁴|10⁵|10⁻²|0.5|2500|1.23·10⁵"
	if got != want {
		t.Errorf("axis labels = %q; want %q", got, want)
	}
}
