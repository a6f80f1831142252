package viz

import (
	"bytes"
	"encoding/json"
	"math"
	"strconv"
)

// widenLogTicks sets logBase on the log axes of an encoded option whose data
// span ten decades or more. ECharts spaces log ticks by a power of ten of
// the exponent: below ten decades one tick per decade, from ten decades one
// tick per ten (a 10¹⁸–10²⁹ axis shows only 10²⁰). With logBase 10^k the
// ticks come every k decades instead.
func widenLogTicks(raw []byte) ([]byte, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var opt map[string]any
	if err := dec.Decode(&opt); err != nil {
		return nil, err
	}
	changed := false
	for dim, key := range []string{"xAxis", "yAxis"} {
		axes, _ := opt[key].([]any)
		if len(axes) == 0 {
			continue
		}
		ax, _ := axes[0].(map[string]any)
		if ax == nil || ax["type"] != "log" {
			continue
		}
		lo, hi := dataExtent(opt["series"], dim)
		if !(lo > 0) || hi <= lo {
			continue
		}
		if span := math.Log10(hi) - math.Log10(lo); span >= 9.5 {
			k := math.Ceil(span / 9)
			ax["logBase"] = math.Pow(10, k)
			// Round the default bounds to whole ticks, so no label sits a decade from the next.
			if isFunc(ax["min"]) {
				ax["min"] = string(JS(sprintf(`function (v) { return Math.pow(10, %g * Math.floor(Math.log10(v.min) / %g + 1e-9)); }`, k, k)))
			}
			if isFunc(ax["max"]) {
				ax["max"] = string(JS(sprintf(`function (v) { return Math.pow(10, %g * Math.ceil(Math.log10(v.max) / %g - 1e-9)); }`, k, k)))
			}
			changed = true
		}
	}
	if !changed {
		return raw, nil
	}
	return json.Marshal(opt)
}

// dataExtent returns the smallest and largest positive value of dimension
// dim (0 = x, 1 = y) in the series' data. Scalar data (bars) count for
// either axis: only the value axis of a bar chart can be a log axis.
func dataExtent(series any, dim int) (lo, hi float64) {
	lo, hi = math.Inf(1), math.Inf(-1)
	add := func(v any) {
		n, ok := v.(json.Number)
		if !ok {
			return
		}
		if f, err := strconv.ParseFloat(string(n), 64); err == nil && f > 0 {
			lo, hi = math.Min(lo, f), math.Max(hi, f)
		}
	}
	list, _ := series.([]any)
	for _, s := range list {
		sm, _ := s.(map[string]any)
		data, _ := sm["data"].([]any)
		for _, d := range data {
			if m, ok := d.(map[string]any); ok {
				d = m["value"]
			}
			switch v := d.(type) {
			case []any:
				if dim < len(v) {
					add(v[dim])
				}
			case json.Number:
				add(v)
			}
		}
	}
	return lo, hi
}

// isFunc reports whether v is a marked JavaScript function (see JS).
func isFunc(v any) bool {
	s, ok := v.(string)
	return ok && len(s) > 2*len(funcMarker) && s[:len(funcMarker)] == funcMarker
}
