package compose

import (
	"fmt"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/dlbd/dlbd/kernel/cell"
	"github.com/dlbd/dlbd/kernel/internal/cellpos"
	"github.com/dlbd/dlbd/kernel/stateful/internal/pkgindex"
)

var (
	indexOnce sync.Once
	index     *pkgindex.Index
	indexErr  error
	fset      = token.NewFileSet()
)

// testIndex returns an index of the standard library and this module,
// shared by the tests (listing it takes a while the first time).
func testIndex(t *testing.T) *pkgindex.Index {
	t.Helper()
	indexOnce.Do(func() {
		index, indexErr = pkgindex.Load(fset, ".", nil, "github.com/dlbd/dlbd/dl/...")
	})
	if indexErr != nil {
		t.Fatal(indexErr)
	}
	return index
}

// session composes cells one after another, as the kernel does, writing
// each package into a module beside this one.
type session struct {
	t   *testing.T
	h   *History
	dir string
	n   int
	out []*Output
}

func newSession(t *testing.T) *session {
	t.Helper()
	dir := t.TempDir()
	repo, err := filepath.Abs("../../../..")
	if err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(dir, "go.mod"), "module "+cellpos.Module+"\n\ngo 1.26.0\n")
	write(t, filepath.Join(dir, "go.work"), fmt.Sprintf("go 1.26.0\n\nuse (\n\t.\n\t%s\n)\n", repo))
	return &session{t: t, h: NewHistory(fset, testIndex(t)), dir: dir}
}

func write(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// compose composes src as the next cell and commits it.
func (s *session) compose(src string) (*Output, error) {
	s.t.Helper()
	c, err := cell.Parse(src)
	if err != nil {
		s.t.Fatal(err)
	}
	s.n++
	out, err := s.h.Compose(Input{Num: s.n, Name: fmt.Sprintf("cell%d", s.n), Decls: c.Decls, Body: c.Body, HasBody: c.HasBody, BodyLine: c.BodyLine})
	if err != nil {
		return nil, err
	}
	write(s.t, filepath.Join(s.dir, out.Pkg.Name, "cell.go"), string(out.Source))
	s.h.Commit(out)
	s.out = append(s.out, out)
	return out, nil
}

// must composes src and fails the test on an error.
func (s *session) must(src string) *Output {
	s.t.Helper()
	out, err := s.compose(src)
	if err != nil {
		s.t.Fatalf("Compose(%q): %v", src, err)
	}
	return out
}

// build compiles every package composed so far.
func (s *session) build() {
	s.t.Helper()
	cmd := exec.Command("go", "vet", "./...")
	cmd.Dir = s.dir
	cmd.Env = append(os.Environ(), "GOFLAGS=", "GOTOOLCHAIN=local")
	if out, err := cmd.CombinedOutput(); err != nil {
		var srcs strings.Builder
		for _, o := range s.out {
			fmt.Fprintf(&srcs, "---- %s\n%s", o.Pkg.Name, o.Source)
		}
		s.t.Fatalf("go vet of the composed cells: %v\n%s\n%s", err, out, srcs.String())
	}
}

func TestComposeCompiles(t *testing.T) {
	if testing.Short() {
		t.Skip("builds packages")
	}
	s := newSession(t)
	s.must("func cuadrado(x float64) float64 { return x * x }\n\nvar contador = 0\ntype experimento struct{ Perdidas []float64 }\nconst n = 3")
	s.must("%%\ncontador++\nfmt.Println(cuadrado(3), contador, n)\ne := experimento{Perdidas: []float64{1, 2}}\nm := map[string]int{}")
	s.must("import \"github.com/dlbd/dlbd/dl/nn\"\n%%\nmodel := nn.NewMLP([]int{2, 3, 1}, nn.MLPConfig{})\ne.Perdidas = append(e.Perdidas, 3)\nm[\"a\"]++\nvar total int = 5\ntype local struct{ A int }\nl := local{A: total}")
	s.must("%%\nfmt.Println(model, l.A, total, len(e.Perdidas))")
	s.must("type wrap struct{ experimento }\nfunc id[T any](x T) T { return x }\n%%\nw := wrap{e}\nfmt.Println(id(w.Perdidas), id[int](total))")
	s.must("%%\nfmt.Println(id(\"x\"), w.Perdidas)")
	s.build()
}

func TestComposeBlankAndMultiAssign(t *testing.T) {
	if testing.Short() {
		t.Skip("builds packages")
	}
	s := newSession(t)
	s.must("import \"os\"\n%%\nf, _ := os.Open(os.DevNull)\n_, err := f.Stat()\nvar _, g = 1, 2")
	s.must("%%\nfmt.Println(f != nil, err, g)")
	s.build()
}
