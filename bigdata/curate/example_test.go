package curate_test

import (
	"fmt"
	"strings"

	"github.com/dlbd/dlbd/bigdata/curate"
)

// Reference runs the same curation as Run in plain Go: here a licence copied with another
// holder's name is a near duplicate, and a copy that only changes case is an exact one.
func ExampleReference() {
	mit := func(holder string) string {
		return "Copyright (c) 2024 " + holder + ". Permission is hereby granted, free of charge, to any person obtaining a copy " +
			"of this software and associated documentation files, to deal in the Software without restriction, including " +
			"without limitation the rights to use, copy, modify, merge, publish, distribute, sublicense, and/or sell copies " +
			"of the Software, and to permit persons to whom the Software is furnished to do so, subject to the following conditions."
	}
	docs := []curate.Doc{
		{ID: 0, Source: "a/LICENSE", Text: mit("Ada Lovelace")},
		{ID: 1, Source: "b/LICENSE", Text: mit("Alan Turing")},
		{ID: 2, Source: "c/LICENSE", Text: strings.ToUpper(mit("Ada Lovelace"))},
		{ID: 3, Source: "d/README", Text: "Too short to train on."},
	}
	r, err := curate.Reference(docs, curate.Config{})
	if err != nil {
		panic(err)
	}
	fmt.Println("rejected:", r.Rejected)
	fmt.Println("exact copies:", r.Exact)
	for _, p := range r.Near {
		fmt.Printf("near: %s ~ %s, Jaccard %.2f\n", docs[p.A].Source, docs[p.B].Source, p.Jaccard)
	}
	fmt.Println("kept:", r.Kept)
	// Output:
	// rejected: map[words:1]
	// exact copies: [{2 0}]
	// near: a/LICENSE ~ b/LICENSE, Jaccard 0.86
	// kept: 1
}

// Probability is the S-curve of banded MinHash: pairs well above the threshold are
// almost always candidates, pairs well below it almost never.
func ExampleProbability() {
	for _, s := range []float64{0.3, 0.5, 0.7, 0.8, 0.9} {
		fmt.Printf("Jaccard %.1f: candidate with probability %.3f\n", s, curate.Probability(s, 16, 8))
	}
	// Output:
	// Jaccard 0.3: candidate with probability 0.001
	// Jaccard 0.5: candidate with probability 0.061
	// Jaccard 0.7: candidate with probability 0.613
	// Jaccard 0.8: candidate with probability 0.947
	// Jaccard 0.9: candidate with probability 1.000
}
