package kernel

import (
	"fmt"
	"reflect"

	"github.com/dlbd/dlbd/kernel/internal/cellctx"
)

// ShowResult shows v as the running cell's result: Jupyter's
// execute_result, which the notebook labels with the cell's execution
// count (IPython's Out[N]). The stateful kernel calls it in place of a
// cell's last line when that line is an expression (a name, a field, a
// call with one result), so cells need not call it; a later call replaces
// the result of an earlier one. A nil v shows nothing, as None in Python.
//
// The result always has text/plain, v as fmt.Println prints it (its
// String method, if it has one; a function's type for a function). When v
// has the methods, it also has text/html from HTML() string (dl.Tensor,
// viz.LossCurve, viz.Progress) and text/markdown from Markdown() string;
// the notebook shows the richest form it can. Outside the stateful kernel
// (a cell run as a process of its own, a program) ShowResult prints the
// text form on stdout.
func ShowResult(v any) {
	if v == nil {
		return
	}
	data := resultData(v)
	if !cellctx.SetResult(data) {
		fmt.Println(data["text/plain"])
	}
}

// resultData returns v's representations by MIME type.
func resultData(v any) map[string]any {
	data := map[string]any{"text/plain": plainText(v)}
	if h, ok := v.(interface{ HTML() string }); ok {
		if s, ok := richForm(h.HTML); ok {
			data["text/html"] = s
		}
	}
	if m, ok := v.(interface{ Markdown() string }); ok {
		if s, ok := richForm(m.Markdown); ok {
			data["text/markdown"] = s
		}
	}
	return data
}

// plainText returns v as fmt.Println prints it; a function, which fmt
// prints as an address, as its type.
func plainText(v any) string {
	if t := reflect.TypeOf(v); t.Kind() == reflect.Func {
		return t.String()
	}
	return fmt.Sprint(v)
}

// richForm calls form; a panic in it (a nil pointer whose method does not
// expect one) leaves the result without that form, as fmt does with a
// String method that panics.
func richForm(form func() string) (s string, ok bool) {
	defer func() {
		if recover() != nil {
			s, ok = "", false
		}
	}()
	return form(), true
}
