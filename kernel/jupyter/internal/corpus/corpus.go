package corpus

import (
	"encoding/json"
	"fmt"
	"os"
)

// The kinds of [Entry]: where in a cell the cursor is.
const (
	KindPackageMember = "package-member" // after "pkg.": fmt.Pri, dl.
	KindValueMember   = "value-member"   // after "x." for any expression x: modelo.We, r.Device().
	KindStructField   = "struct-field"   // a key of a struct literal: viz.PlotOptions{Ti
	KindImportPath    = "import-path"    // inside an import's string: "github.com/dlbd/dlbd/dl/o
	KindName          = "name"           // a partial name: cuad, kernelsC, app
	KindKeyword       = "keyword"        // a partial keyword: ran, ret
	KindMagic         = "magic"          // a magic or its argument: %w, %mode p
)

// Corpus is the completion corpus: cursor positions in the course's
// notebooks, each with the name that follows there in the notebook.
type Corpus struct {
	// About says what the corpus is and how it was made.
	About string `json:"about"`
	// Setups declare, per notebook run in the stateful mode, the names
	// its entries use from earlier cells, in the notebook's order.
	Setups []Setup `json:"setups"`
	// Entries are the positions, in the notebooks' order.
	Entries []Entry `json:"entries"`
}

// Setup is one cell that stands in for a notebook's earlier cells: their
// imports and declarations, and a var for each value a cell body made
// and a later cell uses (declared, never computed: completion needs
// only its type).
type Setup struct {
	// Notebook is the notebook's file name.
	Notebook string `json:"notebook"`
	// Cells are the indexes (in the notebook's "cells") whose
	// declarations it holds.
	Cells []int `json:"cells"`
	// Code is the cell to run.
	Code string `json:"code"`
}

// Entry is one completion request and the names expected in its reply.
type Entry struct {
	// Notebook is the notebook's file name.
	Notebook string `json:"notebook"`
	// Cell is the index of the code cell in the notebook's "cells".
	Cell int `json:"cell"`
	// Mode is the kernel mode the notebook runs that cell in: "stateful"
	// or "process" (after a %mode process cell).
	Mode string `json:"mode"`
	// Kind says where the cursor is (KindPackageMember, ...).
	Kind string `json:"kind"`
	// Code is the cell as a student has typed it up to the cursor: the
	// cell's text up to there (for an import path, with the string's
	// closing quote, as front ends insert it).
	Code string `json:"code"`
	// Cursor is the position in Code in Unicode code points, as
	// complete_request's cursor_pos.
	Cursor int `json:"cursor"`
	// Expect are the matches a student expects in the list: the name the
	// notebook writes at that spot.
	Expect []string `json:"expect"`
}

// Read reads a corpus file, as [WriteFile] writes it.
func Read(path string) (*Corpus, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("corpus: %w", err)
	}
	var c Corpus
	if err := json.Unmarshal(data, &c); err != nil {
		return nil, fmt.Errorf("corpus: %s: %w", path, err)
	}
	return &c, nil
}

// Marshal returns the corpus as indented JSON, one field per line.
func (c *Corpus) Marshal() ([]byte, error) {
	data, err := json.MarshalIndent(c, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("corpus: %w", err)
	}
	return append(data, '\n'), nil
}
