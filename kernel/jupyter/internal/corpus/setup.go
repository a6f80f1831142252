package corpus

import (
	"fmt"
	"go/ast"
	"sort"
	"strings"
)

// notebook is a notebook's code cells and what they declare.
type notebook struct {
	name  string
	cells []*codeCell
	scope *scope
}

// setup returns the cell that stands in for the notebook's stateful
// cells: their imports, their declarations (a later one replacing an
// earlier one of the same name, as in the kernel), and a var of the
// type in [bodyTypes] for each value a body makes and a later cell
// uses. It fails when such a value has no type there.
func (nb notebook) setup() (Setup, error) {
	s := Setup{Notebook: nb.name}
	var imports []string
	seenImport := map[string]bool{}
	type decl struct {
		names []string
		text  string
	}
	var decls []decl
	for _, cc := range nb.cells {
		if cc.mode != "stateful" || cc.decls == nil {
			continue
		}
		s.Cells = append(s.Cells, cc.index)
		for _, d := range cc.decls.Decls {
			if g, ok := d.(*ast.GenDecl); ok && len(g.Specs) > 0 {
				if _, ok := g.Specs[0].(*ast.ImportSpec); ok {
					for _, sp := range g.Specs {
						if im := cc.text(sp); !seenImport[im] {
							seenImport[im] = true
							imports = append(imports, im)
						}
					}
					continue
				}
			}
			decls = append(decls, decl{names: declNames(d), text: cc.text(d)})
		}
	}
	var vars []string
	missing := []string{}
	for _, name := range nb.bodyValuesUsedLater() {
		typ, ok := bodyTypes[nb.name+" "+name]
		if !ok {
			missing = append(missing, name)
			continue
		}
		vars = append(vars, "\t"+name+" "+typ)
	}
	if len(missing) > 0 {
		return s, fmt.Errorf("corpus: %s: values of cell bodies used by later cells without a type in bodyTypes: %s", nb.name, strings.Join(missing, ", "))
	}
	var b strings.Builder
	if len(imports) > 0 {
		b.WriteString("import (\n\t" + strings.Join(imports, "\n\t") + "\n)\n")
	}
	later := map[string]bool{}
	var kept []string
	for i := len(decls) - 1; i >= 0; i-- {
		replaced := false
		for _, n := range decls[i].names {
			replaced = replaced || later[n]
			later[n] = true
		}
		if !replaced {
			kept = append([]string{decls[i].text}, kept...)
		}
	}
	for _, t := range kept {
		b.WriteString("\n" + t + "\n")
	}
	if len(vars) > 0 {
		b.WriteString("\n// Values of earlier cells' bodies: declared, not computed.\nvar (\n" + strings.Join(vars, "\n") + "\n)\n")
	}
	if len(kept) > 0 || len(vars) > 0 {
		s.Code = b.String()
	}
	return s, nil
}

// declNames returns the names d declares.
func declNames(d ast.Decl) []string {
	switch d := d.(type) {
	case *ast.FuncDecl:
		if d.Recv == nil {
			return []string{d.Name.Name}
		}
	case *ast.GenDecl:
		var names []string
		for _, sp := range d.Specs {
			switch sp := sp.(type) {
			case *ast.ValueSpec:
				for _, id := range sp.Names {
					names = append(names, id.Name)
				}
			case *ast.TypeSpec:
				names = append(names, sp.Name.Name)
			}
		}
		return names
	}
	return nil
}

// bodyValuesUsedLater returns, sorted, the names that a stateful cell's
// body declares at its top level and a later stateful cell uses without
// declaring them itself.
func (nb notebook) bodyValuesUsedLater() []string {
	made := map[string]int{}
	used := map[string]bool{}
	for _, cc := range nb.cells {
		if cc.mode != "stateful" {
			continue
		}
		own := map[string]bool{}
		if cc.decls != nil {
			for name := range cc.decls.Scope.Objects {
				own[name] = true
			}
		}
		for _, f := range cc.files() {
			for _, id := range f.Unresolved {
				if _, ok := made[id.Name]; ok && !own[id.Name] {
					used[id.Name] = true
				}
			}
		}
		if cc.body != nil {
			for _, name := range topLevelNames(cc.body) {
				made[name] = cc.index
			}
		}
	}
	var names []string
	for n := range used {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// bodyTypes are the types of the values that notebook cells' bodies make
// and later cells use, keyed "notebook name": read from the notebooks by
// hand (the generator does not type-check cells).
var bodyTypes = map[string]string{
	"00-bienvenida.ipynb modelo":                         "*nn.Linear",
	"01a-mapreduce-y-spark.ipynb corpus":                 "string",
	"01a-mapreduce-y-spark.ipynb ctx":                    "context.Context",
	"01a-mapreduce-y-spark.ipynb dfs":                    "*mapreduce.DFS",
	"01a-mapreduce-y-spark.ipynb referencia":             "map[string]int64",
	"01a-mapreduce-y-spark.ipynb s":                      "*spark.Session",
	"01b-formatos-columnares-y-sql.ipynb csvVentas":      "string",
	"01b-formatos-columnares-y-sql.ipynb ctx":            "context.Context",
	"01b-formatos-columnares-y-sql.ipynb db":             "*duck.DB",
	"01b-formatos-columnares-y-sql.ipynb dir":            "string",
	"01b-formatos-columnares-y-sql.ipynb jsonVentas":     "string",
	"01b-formatos-columnares-y-sql.ipynb parquetVentas":  "[]string",
	"01b-formatos-columnares-y-sql.ipynb s":              "*spark.Session",
	"01b-formatos-columnares-y-sql.ipynb zstdVentas":     "[]string",
	"01c-streaming.ipynb b":                              "*natsbroker.Broker",
	"01c-streaming.ipynb ctx":                            "context.Context",
	"01c-streaming.ipynb kb":                             "*kafka.Broker",
	"01d-pipelines-de-datos-para-dl.ipynb bytesCSV":      "int64",
	"01d-pipelines-de-datos-para-dl.ipynb csvMNIST":      "string",
	"01d-pipelines-de-datos-para-dl.ipynb epocasMNIST":   "int",
	"01d-pipelines-de-datos-para-dl.ipynb imgsCargador":  "float64",
	"01d-pipelines-de-datos-para-dl.ipynb imgsPaso":      "float64",
	"01d-pipelines-de-datos-para-dl.ipynb m":             "*nn.Sequential",
	"01d-pipelines-de-datos-para-dl.ipynb perdidasMNIST": "[]float64",
	"01d-pipelines-de-datos-para-dl.ipynb ctx":           "context.Context",
	"01d-pipelines-de-datos-para-dl.ipynb s":             "*spark.Session",
	"01d-pipelines-de-datos-para-dl.ipynb ds":            "*data.TensorDataset",
	"01d-pipelines-de-datos-para-dl.ipynb fragmentos":    "[][]int",
	"01d-pipelines-de-datos-para-dl.ipynb pasos":         "[]int",
	"01d-pipelines-de-datos-para-dl.ipynb precision":     "float64",
	"03-datasets-y-compute.ipynb corpusGo":               "*curate.Corpus",
	"03-datasets-y-compute.ipynb ctx":                    "context.Context",
	"03-datasets-y-compute.ipynb informe":                "*curate.Report",
	"03-datasets-y-compute.ipynb rutaCorpus":             "string",
	"03-datasets-y-compute.ipynb sesion":                 "*spark.Session",
	"02-por-que-dl-necesita-big-data.ipynb ley":          "scaling.PowerLaw",
	"02-por-que-dl-necesita-big-data.ipynb medidasMNIST": "[]MedidaMNIST",
	"02-por-que-dl-necesita-big-data.ipynb modelosMNIST": "[]string",
	"02-por-que-dl-necesita-big-data.ipynb tiempoMNIST":  "time.Duration",
	"02-por-que-dl-necesita-big-data.ipynb yTest":        "*dl.Tensor",
	"02-por-que-dl-necesita-big-data.ipynb res":          "scaling.Result",
	"05-computacion-eficiente.ipynb flopsConv":           "float64",
	"05-computacion-eficiente.ipynb medidasConv":         "[]bench.FuncResult",
	"05-computacion-eficiente.ipynb kernelsCPU":          "[]bench.MatMulResult",
	"08-data-parallelism.ipynb ddpMNIST":                 "ResultadoMNIST",
	"08-data-parallelism.ipynb testMNIST":                "*data.TensorDataset",
	"08-data-parallelism.ipynb unoMNIST":                 "ResultadoMNIST",
	"09-model-parallelism.ipynb lineas":                  "map[parallel.Schedule]Linea",
	"11-mas-alla-de-una-maquina.ipynb enProceso":         "[]Resultado",
}
