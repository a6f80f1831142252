package pkgindex

import (
	"go/token"
	"path/filepath"
	"slices"
	"testing"
)

func TestLoad(t *testing.T) {
	x, err := Load(token.NewFileSet(), ".", nil, "github.com/dlbd/dlbd/dl")
	if err != nil {
		t.Fatal(err)
	}
	// The pattern's package is the last line go list prints.
	p, ok := x.Lookup("github.com/dlbd/dlbd/dl")
	if !ok || p.Name != "dl" || filepath.Base(p.Dir) != "dl" || p.Export == "" {
		t.Errorf("Lookup(dl) = %+v, %v; want package dl with its directory and export data", p, ok)
	}
	if got := x.Candidates("dl"); !slices.Equal(got, []string{"github.com/dlbd/dlbd/dl"}) {
		t.Errorf("Candidates(dl) = %q; want the dl package", got)
	}
	if i := slices.IndexFunc(x.Importable(), func(p Package) bool { return p.Path == "strings" }); i < 0 {
		t.Error("Importable() has no strings")
	}
	if slices.ContainsFunc(x.Importable(), func(p Package) bool { return p.Path == "internal/abi" }) {
		t.Error("Importable() has internal/abi; a cell cannot import it")
	}
}

func TestBest(t *testing.T) {
	x, err := Load(token.NewFileSet(), ".", nil)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		sels map[string]bool
		want string
	}{
		{name: "rand", want: "math/rand"},
		{name: "rand", sels: map[string]bool{"Intn": true}, want: "math/rand"},
		{name: "rand", sels: map[string]bool{"Prime": true}, want: "crypto/rand"},
		{name: "rand", sels: map[string]bool{"NoSuchName": true}, want: ""},
		{name: "nosuchpackage", want: ""},
	}
	for _, tt := range tests {
		if got := (Chooser{Source: x}).Best(tt.name, tt.sels); got != tt.want {
			t.Errorf("Best(%s, %v) = %q; want %q", tt.name, tt.sels, got, tt.want)
		}
	}
}

// TestChooserBest checks that a preference orders the candidates before
// Best's own order, and still only among those that export the selectors.
func TestChooserBest(t *testing.T) {
	x, err := Load(token.NewFileSet(), ".", nil)
	if err != nil {
		t.Fatal(err)
	}
	crypto := func(path string) int {
		if path == "crypto/rand" {
			return 0
		}
		return 1
	}
	tests := []struct {
		name   string
		prefer func(string) int
		sels   map[string]bool
		want   string
	}{
		{name: "prefer=none", want: "math/rand"},
		{name: "prefer=crypto", prefer: crypto, want: "crypto/rand"},
		{name: "prefer=crypto/sels=Prime", prefer: crypto, sels: map[string]bool{"Prime": true}, want: "crypto/rand"},
		{name: "prefer=crypto/sels=Intn", prefer: crypto, sels: map[string]bool{"Intn": true}, want: "math/rand"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := (Chooser{Source: x, Prefer: tt.prefer}).Best("rand", tt.sels); got != tt.want {
				t.Errorf("Chooser.Best(rand, %v) = %q; want %q", tt.sels, got, tt.want)
			}
		})
	}
}
