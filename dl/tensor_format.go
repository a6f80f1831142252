package dl

import (
	"fmt"
	"html"
	"math"
	"strconv"
	"strings"
)

// Printing options, as PyTorch's defaults (torch.set_printoptions).
const (
	printThreshold = 1000 // more elements than this are summarised
	printEdgeItems = 3    // elements shown at each end of a summarised axis
	printLineWidth = 80
	printPrecision = 4
)

// String formats t as PyTorch prints a tensor, always naming the device
// and dtype: "tensor([[1., 2.],\n        [3., 4.]], device=cpu,
// dtype=float32)".  Tensors with more than 1000 elements are summarised
// with "..." and 3 items at each end of every axis.  Values are copied to
// the host to print them.
func (t *Tensor) String() string {
	if t == nil {
		return "<nil>"
	}
	if t.released != "" {
		return "tensor(<released by " + t.released + ">)"
	}
	const prefix = "tensor("
	summarize := t.n > printThreshold
	var body string
	if t.dtype.isInt() { // exact, from int64 values: 2^53 + 1 prints as itself
		vals := t.Int64s()
		body = formatBody(vals, t.shape, len(prefix), summarize, newIntFormatter(summarizedValues(vals, t.shape, summarize), t.dtype == Bool))
	} else {
		vals := t.Float64s()
		body = formatBody(vals, t.shape, len(prefix), summarize, newFormatter(summarizedValues(vals, t.shape, summarize)))
	}
	suffixes := []string{"device=" + t.dev.String(), "dtype=" + t.dtype.String()}
	if t.n == 0 && len(t.shape) != 1 {
		suffixes = append([]string{fmt.Sprintf("size=%v", t.shape)}, suffixes...)
	}
	if t.requiresGrad && t.node == nil {
		suffixes = append(suffixes, "requires_grad=true")
	} else if t.node != nil {
		suffixes = append(suffixes, "grad_fn=<"+t.node.op+"Backward>")
	}
	return addSuffixes(prefix+body, suffixes, len(prefix))
}

// addSuffixes appends ", suffix" items, wrapping to a new line when the
// line would pass the line width (PyTorch's _add_suffixes).
func addSuffixes(s string, suffixes []string, indent int) string {
	var b strings.Builder
	b.WriteString(s)
	last := len(s) - strings.LastIndex(s, "\n") + 1
	for _, suf := range suffixes {
		if last+len(suf)+2 > printLineWidth {
			b.WriteString(",\n" + strings.Repeat(" ", indent) + suf)
			last = indent + len(suf)
		} else {
			b.WriteString(", " + suf)
			last += len(suf) + 2
		}
	}
	b.WriteString(")")
	return b.String()
}

// valueFormatter formats the printed values of one tensor to one width.
type valueFormatter[T any] interface {
	format(v T) string
	cellWidth() int
}

// formatBody formats the values of a tensor of shape: "[]", a scalar, or
// the nested rows.
func formatBody[T any](vals []T, shape []int, indent int, summarize bool, f valueFormatter[T]) string {
	switch {
	case len(vals) == 0:
		return "[]"
	case len(shape) == 0:
		return f.format(vals[0])
	}
	return formatAxis(vals, shape, indent, summarize, f)
}

// formatAxis formats the row-major values of shape, indented by indent.
func formatAxis[T any](vals []T, shape []int, indent int, summarize bool, f valueFormatter[T]) string {
	if len(shape) == 1 {
		return formatVector(vals, indent, summarize, f)
	}
	stride := numel(shape[1:])
	sub := func(i int) string {
		return formatAxis(vals[i*stride:(i+1)*stride], shape[1:], indent+1, summarize, f)
	}
	var parts []string
	if summarize && shape[0] > 2*printEdgeItems {
		for i := 0; i < printEdgeItems; i++ {
			parts = append(parts, sub(i))
		}
		parts = append(parts, "...")
		for i := shape[0] - printEdgeItems; i < shape[0]; i++ {
			parts = append(parts, sub(i))
		}
	} else {
		for i := 0; i < shape[0]; i++ {
			parts = append(parts, sub(i))
		}
	}
	sep := "," + strings.Repeat("\n", len(shape)-1) + strings.Repeat(" ", indent+1)
	return "[" + strings.Join(parts, sep) + "]"
}

func formatVector[T any](vals []T, indent int, summarize bool, f valueFormatter[T]) string {
	perLine := max(1, (printLineWidth-indent)/(f.cellWidth()+2))
	var items []string
	if summarize && len(vals) > 2*printEdgeItems {
		for _, v := range vals[:printEdgeItems] {
			items = append(items, f.format(v))
		}
		items = append(items, " ...")
		for _, v := range vals[len(vals)-printEdgeItems:] {
			items = append(items, f.format(v))
		}
	} else {
		for _, v := range vals {
			items = append(items, f.format(v))
		}
	}
	var lines []string
	for i := 0; i < len(items); i += perLine {
		lines = append(lines, strings.Join(items[i:min(i+perLine, len(items))], ", "))
	}
	return "[" + strings.Join(lines, ",\n"+strings.Repeat(" ", indent+1)) + "]"
}

// summarizedValues returns the values that will be printed.
func summarizedValues[T any](vals []T, shape []int, summarize bool) []T {
	if !summarize || len(shape) == 0 {
		return vals
	}
	stride := numel(shape[1:])
	var idx []int
	if shape[0] > 2*printEdgeItems {
		for i := 0; i < printEdgeItems; i++ {
			idx = append(idx, i, shape[0]-1-i)
		}
	} else {
		for i := 0; i < shape[0]; i++ {
			idx = append(idx, i)
		}
	}
	var out []T
	for _, i := range idx {
		out = append(out, summarizedValues(vals[i*stride:(i+1)*stride], shape[1:], true)...)
	}
	return out
}

// formatter chooses one format for all printed values, as PyTorch's
// _Formatter: integers as "3.", otherwise 4 decimals, and scientific
// notation when the magnitudes span more than 1000× or pass 1e8 (or go
// below 1e-4); every value is padded to the widest.
type formatter struct {
	intMode, sciMode bool
	width            int
}

func newFormatter(vals []float64) *formatter {
	f := &formatter{intMode: true}
	lo, hi := math.Inf(1), 0.0
	for _, v := range vals {
		if math.IsInf(v, 0) || math.IsNaN(v) || v == 0 {
			continue
		}
		a := math.Abs(v)
		lo, hi = min(lo, a), max(hi, a)
		if v != math.Ceil(v) {
			f.intMode = false
		}
	}
	if hi > 0 {
		if f.intMode {
			f.sciMode = hi/lo > 1000 || hi > 1e8
		} else {
			f.sciMode = hi/lo > 1000 || hi > 1e8 || lo < 1e-4
		}
	}
	f.width = 1 // as PyTorch: the width of the nonzero finite values
	for _, v := range vals {
		if !math.IsInf(v, 0) && !math.IsNaN(v) && v != 0 {
			f.width = max(f.width, len(f.raw(v)))
		}
	}
	return f
}

func (f *formatter) raw(v float64) string {
	switch {
	case math.IsNaN(v):
		return "nan"
	case math.IsInf(v, 1):
		return "inf"
	case math.IsInf(v, -1):
		return "-inf"
	case f.sciMode:
		return fmt.Sprintf("%.*e", printPrecision, v)
	case f.intMode:
		return fmt.Sprintf("%.0f.", v)
	}
	return fmt.Sprintf("%.*f", printPrecision, v)
}

func (f *formatter) format(v float64) string {
	s := f.raw(v)
	return strings.Repeat(" ", max(0, f.width-len(s))) + s
}

func (f *formatter) cellWidth() int { return f.width }

// intFormatter prints integers as PyTorch does ("3", no point) and Bool
// values as "True" and "False", padded to the widest.
type intFormatter struct {
	isBool bool
	width  int
}

func newIntFormatter(vals []int64, isBool bool) *intFormatter {
	f := &intFormatter{isBool: isBool, width: 1}
	for _, v := range vals {
		f.width = max(f.width, len(f.raw(v)))
	}
	return f
}

func (f *intFormatter) raw(v int64) string {
	if f.isBool {
		if v != 0 {
			return "True"
		}
		return "False"
	}
	return strconv.FormatInt(v, 10)
}

func (f *intFormatter) format(v int64) string {
	s := f.raw(v)
	return strings.Repeat(" ", max(0, f.width-len(s))) + s
}

func (f *intFormatter) cellWidth() int { return f.width }

// HTML renders t for a notebook cell: a caption with shape, dtype, device
// and memory, and the String form in a <pre> block (HTML-escaped).  With
// GoNB: gonbui.DisplayHTML(t.HTML()).
func (t *Tensor) HTML() string {
	if t == nil {
		return "<pre>&lt;nil&gt;</pre>"
	}
	caption := fmt.Sprintf("Tensor %v · %v · %v · %s", t.shape, t.dtype, t.dev, FormatBytes(t.Bytes()))
	if t.requiresGrad {
		caption += " · requires_grad"
	}
	return `<div class="dl-tensor"><div style="font-size:smaller;color:#666">` + html.EscapeString(caption) +
		`</div><pre style="margin:0">` + html.EscapeString(t.String()) + `</pre></div>`
}
