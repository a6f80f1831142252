package linked

import (
	"os/exec"
	"strings"
	"testing"
)

// TestStatefulBuildsLeaveEnginesToTheHost: with the stateful kernel's tags, the API
// packages a cell imports depend on none of the engines' implementations (which the
// host links once), and without them each links its own.
func TestStatefulBuildsLeaveEnginesToTheHost(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command")
	}
	heavy := []string{
		"github.com/duckdb/duckdb-go/v2",
		"github.com/apache/arrow-go/v18/parquet",
		"github.com/twmb/franz-go/pkg/kgo",
		"github.com/nats-io/nats-server/v2/server",
		"github.com/goccy/go-json",
	}
	api := []string{"bigdata/duck", "bigdata/columnar", "bigdata/shards", "bigdata/kafka", "bigdata/natsbroker"}
	deps := func(tags string, pkg string) map[string]bool {
		out, err := exec.Command("go", "list", "-deps", "-tags", tags, "github.com/dlbd/dlbd/"+pkg).CombinedOutput()
		if err != nil {
			t.Fatalf("go list %s: %v\n%s", pkg, err, out)
		}
		m := map[string]bool{}
		for _, p := range strings.Fields(string(out)) {
			m[p] = true
		}
		return m
	}
	for _, pkg := range api {
		d := deps("noasm,arrow_json_stdlib,dlbd_stateful", pkg)
		for _, h := range heavy {
			if d[h] {
				t.Errorf("with -tags dlbd_stateful, %s depends on %s: a cell that uses it links it again", pkg, h)
			}
		}
	}
	// Without the tags, each API package links its implementation itself.
	for pkg, impl := range map[string]string{
		"bigdata/duck":       "github.com/duckdb/duckdb-go/v2",
		"bigdata/columnar":   "github.com/dlbd/dlbd/bigdata/columnar/parquetio",
		"bigdata/kafka":      "github.com/dlbd/dlbd/bigdata/kafka/franz",
		"bigdata/natsbroker": "github.com/dlbd/dlbd/bigdata/natsbroker/embedded",
	} {
		if !deps("", pkg)[impl] {
			t.Errorf("without the tag, %s does not link %s", pkg, impl)
		}
	}
	// The host links every implementation.
	host := deps("noasm,arrow_json_stdlib,dlbd_stateful", "kernel/cmd/dlbd-host")
	for _, impl := range []string{"github.com/duckdb/duckdb-go/v2", "github.com/dlbd/dlbd/bigdata/columnar/parquetio",
		"github.com/dlbd/dlbd/bigdata/kafka/franz", "github.com/dlbd/dlbd/bigdata/natsbroker/embedded"} {
		if !host[impl] {
			t.Errorf("the host (kernel/cmd/dlbd-host) does not link %s", impl)
		}
	}
}

func TestHookNamesTheMissingPackage(t *testing.T) {
	h := NewHook[int]("the test codecs", "example.com/codecs")
	if _, err := h.Get(); err == nil || !strings.Contains(err.Error(), `import _ "example.com/codecs"`) || !strings.Contains(err.Error(), "dlbd_stateful") {
		t.Errorf("Get before Set: err = %v; want it to name the package to import and the tag", err)
	}
	h.Set(7)
	if v, err := h.Get(); err != nil || v != 7 {
		t.Errorf("Get after Set = %v, %v", v, err)
	}
}
