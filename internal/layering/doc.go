// Package layering holds no code: its test states which dlbd packages may import which,
// and checks the whole module against that table with `go list`.
//
// # Overview
//
// Imports point down (STYLE.md rule 1). From the bottom up:
//
//   - internal/ and facts/: shared leaves (atomic files, the checkout, cited data);
//   - dl/: tensors and training; dl itself imports only dl/internal and internal/cpuload;
//   - bigdata/ (which feeds dl) and viz/ (which draws for any mode and engine);
//   - kernel/: the notebook layer, free to import everything below it.
//
// A package main cannot be imported at all, so the cmd/ packages need no rule.
//
// # Errors
//
// The test fails naming each package that depends on a package its rule forbids, and the
// reason for the rule.
//
// # Concepts
//
//   - Dependency: a package imported directly or through other packages (`go list -deps`).
package layering
