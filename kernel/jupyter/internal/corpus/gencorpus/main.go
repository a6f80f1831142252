// Command gencorpus writes the completion corpus of the kernel's
// benchmarks (kernel/jupyter/testdata/completion_corpus.json) from the
// course's notebooks. Run it from the repository's root:
//
//	go run ./kernel/jupyter/internal/corpus/gencorpus
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/dlbd/dlbd/kernel/jupyter/internal/corpus"
)

func main() {
	notebooks := flag.String("notebooks", "notebooks", "directory of the course's notebooks")
	out := flag.String("o", "kernel/jupyter/testdata/completion_corpus.json", "file to write")
	flag.Parse()
	if err := corpus.WriteFile(*notebooks, *out); err != nil {
		fmt.Fprintln(os.Stderr, "gencorpus:", err)
		os.Exit(1)
	}
}
