package kernel

import (
	"reflect"
	"testing"

	"github.com/dlbd/dlbd/kernel/internal/cellctx"
)

type htmlValue struct{ n int }

func (h htmlValue) String() string { return "valor" }
func (h htmlValue) HTML() string   { return "<b>valor</b>" }

type markdownValue struct{}

func (markdownValue) Markdown() string { return "**valor**" }

type fragile struct{ n *int }

func (f *fragile) HTML() string { return "<i>" + string(rune('0'+*f.n)) + "</i>" }

func TestResultData(t *testing.T) {
	tests := []struct {
		name string
		v    any
		want map[string]any
	}{
		{name: "int", v: 42, want: map[string]any{"text/plain": "42"}},
		{name: "slice", v: []float64{1, 2.5}, want: map[string]any{"text/plain": "[1 2.5]"}},
		{name: "string", v: "hola", want: map[string]any{"text/plain": "hola"}},
		{name: "html", v: htmlValue{}, want: map[string]any{"text/plain": "valor", "text/html": "<b>valor</b>"}},
		{name: "markdown", v: markdownValue{}, want: map[string]any{"text/plain": "{}", "text/markdown": "**valor**"}},
		{name: "func", v: func(x float64) float64 { return x }, want: map[string]any{"text/plain": "func(float64) float64"}},
		{name: "html-method-panics", v: (*fragile)(nil), want: map[string]any{"text/plain": "<nil>"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := resultData(tt.v); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("resultData(%#v) = %v; want %v", tt.v, got, tt.want)
			}
		})
	}
}

func TestShowResultInHost(t *testing.T) {
	cellctx.KeepResults()
	ShowResult(nil)
	if got := cellctx.TakeResult(); got != nil {
		t.Errorf("ShowResult(nil) kept %v; want nothing", got)
	}
	ShowResult(1)
	ShowResult(htmlValue{})
	want := map[string]any{"text/plain": "valor", "text/html": "<b>valor</b>"}
	if got := cellctx.TakeResult(); !reflect.DeepEqual(got, want) {
		t.Errorf("after two ShowResult calls TakeResult() = %v; want the last, %v", got, want)
	}
	if got := cellctx.TakeResult(); got != nil {
		t.Errorf("second TakeResult() = %v; want nil", got)
	}
}
