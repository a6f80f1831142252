// Package corpus is the completion corpus of the kernel's measures: cursor
// positions in the course's notebooks, each with the name that the
// notebook writes there, so that a benchmark can ask the kernel for Tab
// at each one and count how often that name is offered.
//
// # Overview
//
// [Generate] reads the notebooks' code cells (split as the kernel splits
// them, by package cell), parses their Go parts and collects every
// distinct position of seven kinds: after "pkg." (a package member),
// after "x." for any other expression (a field or method), a key of a
// struct literal, an import path, a partial name, a partial keyword and a
// magic. It keeps an evenly spread share of each kind (quotas), and
// writes for each the cell typed up to the cursor, what a student has
// typed of the name (none to two letters after a dot), and the name as
// the expected match. Command gencorpus writes the result to
// kernel/jupyter/testdata/completion_corpus.json; a test checks that the
// file is current.
//
// A notebook's later cells use what earlier cells declared. For each
// notebook run in the stateful mode, a [Setup] cell stands in for them:
// its imports and declarations, and a var, declared and never computed,
// for each value a cell body made and a later cell uses (the type is
// written by hand in bodyTypes: the generator does not type-check cells).
// Entries of cells after "%mode process" are marked as such; the kernel's
// process mode leaves the session's names out.
//
// # Errors
//
// Generate fails on a notebook it cannot read or on a value of a cell
// body used later whose type is not in bodyTypes; cells whose Go does not
// parse give no positions.
//
// # Concepts
//
//   - Expected name: what follows the cursor in the notebook, not what an
//     engine returns, so that the share of positions found measures what
//     a student of the course meets.
//   - Cursor: in Unicode code points, as Jupyter's cursor_pos counts.
package corpus
