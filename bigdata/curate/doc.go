// Package curate cleans a text corpus the way the web-scale datasets of the course are
// cleaned before training (C4, The Pile, RefinedWeb, FineWeb…): quality filters, then
// exact and near-duplicate removal, run on Spark with a plain-Go reference that checks it.
//
// # Overview
//
// [Collect] gathers a real corpus that every machine with Go has offline: the text
// documents (README, LICENSE, NOTICE, Markdown…) of the Go module cache and of GOROOT,
// where licences are copied from project to project and a module kept at several versions
// carries nearly the same README several times, as a monthly web crawl re-captures the
// same pages. [WriteJSONL] writes it where Spark can read it.
//
// [Quality] holds the document filters of Gopher's MassiveText (Rae et al. 2021,
// arXiv:2112.11446, appendix A): word count, mean word length, '#' per word, words with a
// letter, English stop words. [Quality.Reason] is the Go reference; [Quality.SQL] the same
// rules as one Spark SQL expression.
//
// Near duplicates are found with MinHash and locality-sensitive hashing (Broder 1997;
// GPT-3's data was fuzzily deduplicated with Spark's MinHashLSH, Brown et al. 2020,
// arXiv:2005.14165, appendix A): each document becomes the set of its k-word shingles,
// Bands×Rows minimum hashes summarise the set, documents that agree on all the hashes of
// one band become candidates, and a candidate pair is kept when its exact Jaccard
// similarity reaches the threshold. [Run] does every step in Spark SQL (xxhash64 seeded by
// the hash index, higher-order array functions, a self-join on band keys); [Pairs]
// computes the exact similarity of every pair in Go, so a test and a notebook can measure
// what the hashing found and what it missed ([Probability] is the theory's S-curve).
package curate
