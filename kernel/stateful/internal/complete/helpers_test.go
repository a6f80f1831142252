package complete

import (
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"sync"
	"testing"

	"github.com/dlbd/dlbd/kernel/internal/cellpos"
	"github.com/dlbd/dlbd/kernel/stateful/internal/pkgindex"
)

func init() { repanic = func(v any) { panic(v) } } // the tests see what Complete and Inspect would hide

var (
	indexOnce sync.Once
	index     *pkgindex.Index
	indexErr  error
)

// testIndex returns an index of the standard library and dl's packages,
// shared by the tests (listing it takes a while the first time).
func testIndex(tb testing.TB) *pkgindex.Index {
	tb.Helper()
	indexOnce.Do(func() {
		index, indexErr = pkgindex.Load(token.NewFileSet(), ".", nil, "github.com/dlbd/dlbd/dl/...")
	})
	if indexErr != nil {
		tb.Fatal(indexErr)
	}
	return index
}

// earlierCell is what an earlier cell of the tests' session declared; its
// body's lifted variable is a local of DlbdRun, as the kernel's are.
const earlierCell = `package cell1

import (
	"github.com/dlbd/dlbd/dl"
	"github.com/dlbd/dlbd/dl/nn"
)

var modelo = nn.NewMLP([]int{2, 3, 1}, nn.MLPConfig{})

// cuadrado returns x².
func cuadrado(x float64) float64 { return x * x }

type Punto struct {
	X, Y    float64
	secreto int
}

func (p Punto) Norma2() float64 { return p.X*p.X + p.Y*p.Y }

const Pi2 = 6.28

var año = 2024

func DlbdRun() {
	tensor := dl.Ones(2, 3)
	_ = tensor
}
`

// checkCell type-checks src, a cell package named name.
func checkCell(tb testing.TB, name, src string) (*types.Package, *types.Info) {
	tb.Helper()
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, name+".go", src, 0)
	if err != nil {
		tb.Fatal(err)
	}
	info := &types.Info{Defs: map[*ast.Ident]types.Object{}}
	conf := types.Config{Importer: testIndex(tb)}
	pkg, err := conf.Check(cellpos.Package(name), fset, []*ast.File{f}, info)
	if err != nil {
		tb.Fatal(err)
	}
	return pkg, info
}

// testSymbols type-checks earlierCell and returns its names as the
// session would, from Cell [1].
func testSymbols(tb testing.TB) []Symbol {
	tb.Helper()
	pkg, info := checkCell(tb, "cell1", earlierCell)
	var syms []Symbol
	for _, name := range pkg.Scope().Names() {
		if name != cellpos.RunFunc {
			syms = append(syms, Symbol{Name: name, Object: pkg.Scope().Lookup(name), Cell: 1})
		}
	}
	for id, obj := range info.Defs {
		if id.Name == "tensor" {
			syms = append(syms, Symbol{Name: "tensor", Object: obj, Cell: 1})
		}
	}
	return syms
}
