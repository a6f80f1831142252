package facts

import (
	"fmt"
	"strings"
)

// Accelerator is one row of accelerators.csv: the public specification of a
// GPU, TPU or similar chip (or, for "GB200 NVL72 (rack)", a whole rack).
// Numeric fields are NaN where the cell is empty (value not found or not
// applicable). "Dense" TFLOPS are without 2:4 sparsity (half of NVIDIA's
// headline figures).
type Accelerator struct {
	Vendor               string  // "NVIDIA", "AMD", "Google", "Intel"
	Name                 string  // accelerator column: "H100", "TPU v5p", ...
	Variant              string  // "SXM5 80GB", ...; may be empty
	Year                 int     // year of introduction
	MemoryGB             float64 // on-package memory, GB
	MemoryType           string  // "HBM3", ...
	MemBandwidthTBs      float64 // memory bandwidth, TB/s
	FP16DenseTFLOPS      float64 // dense FP16 tensor TFLOPS
	BF16DenseTFLOPS      float64 // dense BF16 tensor TFLOPS
	FP8DenseTFLOPS       float64 // dense FP8 tensor TFLOPS
	TDPWatts             float64 // thermal design power, W
	ScaleUpInterconnect  string  // "NVLink 4.0", "ICI", ...
	InterconnectGBsBidir float64 // scale-up bandwidth per chip, GB/s, both directions
	PodOrDomain          string  // size of the NVLink domain or TPU pod
	Citation                     // Source, Status, Note
}

// FullName is "Name Variant" (or Name when there is no variant).
func (a Accelerator) FullName() string {
	return strings.TrimSpace(a.Name + " " + a.Variant)
}

var accelerators lazy[Accelerator]

// Accelerators returns every row of accelerators.csv, in file order.
func Accelerators() []Accelerator {
	return loadRows(&accelerators, "accelerators.csv", func(r row) Accelerator {
		return Accelerator{
			Vendor: r.str("vendor"), Name: r.str("accelerator"), Variant: r.str("variant"),
			Year: r.integer("year"), MemoryGB: r.num("memory_gb"), MemoryType: r.str("memory_type"),
			MemBandwidthTBs: r.num("mem_bw_tbs"), FP16DenseTFLOPS: r.num("fp16_dense_tflops"),
			BF16DenseTFLOPS: r.num("bf16_dense_tflops"), FP8DenseTFLOPS: r.num("fp8_dense_tflops"),
			TDPWatts: r.num("tdp_w"), ScaleUpInterconnect: r.str("scaleup_interconnect"),
			InterconnectGBsBidir: r.num("interconnect_bw_gbs_bidir"), PodOrDomain: r.str("pod_or_domain"),
			Citation: r.cite(),
		}
	})
}

// AcceleratorByName finds the accelerator whose vendor, name and variant
// contain every word of name, ignoring case: "H100", "H100 SXM5",
// "A100 80GB", "nvidia b200" and "TPU v5p" each name one row. A name that
// matches several rows ("A100") or none is an error listing the choices.
func AcceleratorByName(name string) (Accelerator, error) {
	return byName("accelerator", name, Accelerators(), func(x Accelerator) string { return x.Vendor + " " + x.FullName() })
}

// byName returns the only row whose key (from key) holds every word of name;
// see lookup.
func byName[T any](what, name string, all []T, key func(T) string) (T, error) {
	keys := make([]string, len(all))
	for i, x := range all {
		keys[i] = key(x)
	}
	i, err := lookup(what, name, keys)
	if err != nil {
		var zero T
		return zero, err
	}
	return all[i], nil
}

// lookup returns the index of the only key that holds every word of query
// (case-insensitive), or an error naming the candidates. Whole words are tried
// first; if none matches, a query word may also be the start of a key word
// ("H100 SXM" finds "H100 SXM5 80GB").
func lookup(what, query string, keys []string) (int, error) {
	words := tokens(query)
	if len(words) == 0 {
		return -1, fmt.Errorf("facts: empty %s name (known: %s)", what, strings.Join(keys, "; "))
	}
	hits := matchKeys(words, keys, func(k, w string) bool { return k == w })
	if len(hits) == 0 {
		hits = matchKeys(words, keys, strings.HasPrefix)
	}
	switch len(hits) {
	case 1:
		return hits[0], nil
	case 0:
		return -1, fmt.Errorf("facts: no %s matches %q (known: %s)", what, query, strings.Join(keys, "; "))
	}
	var names []string
	for _, i := range hits {
		names = append(names, keys[i])
	}
	return -1, fmt.Errorf("facts: %s name %q is ambiguous: it matches %s; add a word to choose one", what, query, strings.Join(names, "; "))
}

// matchKeys returns the indices of the keys in which every query word matches
// some word of the key.
func matchKeys(words, keys []string, match func(keyWord, queryWord string) bool) []int {
	var hits []int
	for i, k := range keys {
		kw := tokens(k)
		all := true
		for _, w := range words {
			found := false
			for _, x := range kw {
				found = found || match(x, w)
			}
			all = all && found
		}
		if all {
			hits = append(hits, i)
		}
	}
	return hits
}

// tokens splits s into lower-case words at spaces, commas and parentheses.
func tokens(s string) []string {
	return strings.FieldsFunc(strings.ToLower(s), func(r rune) bool {
		return r == ' ' || r == ',' || r == '(' || r == ')' || r == '=' || r == '+'
	})
}
