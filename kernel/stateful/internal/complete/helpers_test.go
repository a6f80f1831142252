package complete

import (
	"fmt"
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

// sharedIndex is an index the tests share: listing it takes a while the
// first time.
type sharedIndex struct {
	once  sync.Once
	index *pkgindex.Index
	err   error
}

// load returns the index of the standard library and pattern, listed on
// the first call.
func (s *sharedIndex) load(tb testing.TB, pattern string) *pkgindex.Index {
	tb.Helper()
	s.once.Do(func() { s.index, s.err = pkgindex.Load(token.NewFileSet(), ".", nil, pattern) })
	if s.err != nil {
		tb.Fatal(s.err)
	}
	return s.index
}

var dlIndex, sparkIndexes sharedIndex

// testIndex returns an index of the standard library and dl's packages.
func testIndex(tb testing.TB) *pkgindex.Index {
	tb.Helper()
	return dlIndex.load(tb, "github.com/dlbd/dlbd/dl/...")
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
	return checkCellWith(tb, testIndex(tb), name, src)
}

// checkCellWith type-checks src, a cell package named name, importing
// from imp.
func checkCellWith(tb testing.TB, imp types.Importer, name, src string) (*types.Package, *types.Info) {
	tb.Helper()
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, name+".go", src, 0)
	if err != nil {
		tb.Fatal(err)
	}
	info := &types.Info{Defs: map[*ast.Ident]types.Object{}}
	conf := types.Config{Importer: imp}
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

// sparkIndex returns an index of the standard library and the course's
// bigdata/spark, whose dependencies hold another package named spark,
// Spark's Go client (github.com/apache/spark-connect-go/spark). Listing
// it builds that client's dependencies the first time: tests that need it
// skip with -short.
func sparkIndex(tb testing.TB) *pkgindex.Index {
	tb.Helper()
	if testing.Short() {
		tb.Skip("lists bigdata/spark and Spark's Go client")
	}
	return sparkIndexes.load(tb, "github.com/dlbd/dlbd/bigdata/spark")
}

// cellSymbols type-checks the earlier cells srcs, importing from index,
// and returns their package-level names, of Cell [1], [2]….
func cellSymbols(tb testing.TB, index *pkgindex.Index, srcs ...string) []Symbol {
	tb.Helper()
	var syms []Symbol
	for i, src := range srcs {
		name := fmt.Sprintf("cell%d", i+1)
		pkg, _ := checkCellWith(tb, index, name, "package "+name+"\n\n"+src)
		for _, n := range pkg.Scope().Names() {
			syms = append(syms, Symbol{Name: n, Object: pkg.Scope().Lookup(n), Cell: i + 1})
		}
	}
	return syms
}
