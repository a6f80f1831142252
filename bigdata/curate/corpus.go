package curate

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/dlbd/dlbd/internal/atomicfile"
)

// Doc is one document of a corpus.
type Doc struct {
	ID     int64  `json:"id"`     // position in the corpus, from 0
	Source string `json:"source"` // where it comes from, e.g. "mod/golang.org/x/net@v0.30.0/README.md"
	Text   string `json:"text"`
}

// Corpus is a collected corpus and what was left out of it.
type Corpus struct {
	Docs    []Doc
	Roots   []string // the folders searched
	TooBig  int      // files over MaxFileBytes, left out whole (never truncated)
	NotUTF8 int      // files that are not UTF-8 text, left out
	Over    int      // documents beyond the limit asked for, left out (the last ones by path)
}

// MaxFileBytes is the largest file Collect takes.
const MaxFileBytes = 256 << 10

// GoRoots returns the Go module cache and GOROOT, as the go command reports them.
func GoRoots() ([]string, error) {
	out, err := exec.Command("go", "env", "GOMODCACHE", "GOROOT").Output()
	if err != nil {
		return nil, fmt.Errorf("curate: `go env GOMODCACHE GOROOT` failed (%v): install Go (https://go.dev/doc/install) or pass the folders to Collect", err)
	}
	var roots []string
	for _, l := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		if l = strings.TrimSpace(l); l != "" {
			roots = append(roots, l)
		}
	}
	return roots, nil
}

// IsTextDoc reports whether a file name is one Collect takes: README, LICENSE, LICENCE,
// COPYING, NOTICE, AUTHORS, CONTRIBUTING or SECURITY files of any extension, and Markdown.
func IsTextDoc(name string) bool {
	up := strings.ToUpper(name)
	for _, p := range []string{"README", "LICENSE", "LICENCE", "COPYING", "NOTICE", "AUTHORS", "CONTRIBUTING", "SECURITY"} {
		if strings.HasPrefix(up, p) {
			return true
		}
	}
	return strings.HasSuffix(up, ".MD")
}

// Collect walks roots (GoRoots when none are given) and returns their text documents
// (IsTextDoc), sorted by path, at most max of them (0: all). Each document's Source is
// its path relative to its root, prefixed with the root's base name. The module cache's
// download cache (a "cache" folder at its top) is skipped: it holds zip files, not text.
func Collect(max int, roots ...string) (*Corpus, error) {
	if len(roots) == 0 {
		var err error
		if roots, err = GoRoots(); err != nil {
			return nil, err
		}
	}
	c := &Corpus{Roots: roots}
	type file struct {
		path, source string
		size         int64
	}
	var files []file
	for _, root := range roots {
		err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return nil // an unreadable folder is not text we could take
			}
			if d.IsDir() {
				if p == filepath.Join(root, "cache") || d.Name() == ".git" {
					return filepath.SkipDir
				}
				return nil
			}
			if !d.Type().IsRegular() || !IsTextDoc(d.Name()) {
				return nil
			}
			info, err := d.Info()
			if err != nil {
				return nil // gone since the folder was listed
			}
			rel, _ := filepath.Rel(root, p)
			files = append(files, file{p, filepath.ToSlash(filepath.Join(filepath.Base(root), rel)), info.Size()})
			return nil
		})
		if err != nil {
			return nil, fmt.Errorf("curate: walk %s: %w", root, err)
		}
	}
	sort.Slice(files, func(i, j int) bool { return files[i].source < files[j].source })
	for _, f := range files {
		if f.size > MaxFileBytes {
			c.TooBig++
			continue
		}
		b, err := os.ReadFile(f.path)
		if err != nil {
			return nil, fmt.Errorf("curate: read %s: %w", f.path, err)
		}
		if !utf8.Valid(b) || strings.ContainsRune(string(b), 0) {
			c.NotUTF8++
			continue
		}
		if max > 0 && len(c.Docs) == max {
			c.Over++
			continue
		}
		c.Docs = append(c.Docs, Doc{ID: int64(len(c.Docs)), Source: f.source, Text: string(b)})
	}
	if len(c.Docs) == 0 {
		return nil, fmt.Errorf("curate: no text documents under %s: the module cache is empty? run scripts/setup.sh (it downloads the modules)", strings.Join(roots, ", "))
	}
	return c, nil
}

// Bytes is the corpus's total text size.
func (c *Corpus) Bytes() int64 {
	var n int64
	for _, d := range c.Docs {
		n += int64(len(d.Text))
	}
	return n
}

// WriteJSONL writes docs to path atomically, one JSON object per line ({"id", "source",
// "text"}), the form Spark's JSON reader takes.
func WriteJSONL(path string, docs []Doc) error {
	err := atomicfile.Write(path, 0o644, func(w io.Writer) error {
		bw := bufio.NewWriter(w)
		enc := json.NewEncoder(bw)
		for _, d := range docs {
			if err := enc.Encode(d); err != nil {
				return err
			}
		}
		return bw.Flush()
	})
	if err != nil {
		return fmt.Errorf("curate: write %s: %w", path, err)
	}
	return nil
}
