package envlist

import (
	"slices"
	"testing"
)

func TestListKeepsOrderAndLastValue(t *testing.T) {
	l := Parse([]string{"A=1", "B=2", "A=3", "EMPTY=", "NOEQ"})
	if v, ok := l.Get("A"); !ok || v != "3" {
		t.Errorf("Get(A) = %q, %v; want the last value 3", v, ok)
	}
	if v, ok := l.Get("NOEQ"); !ok || v != "" {
		t.Errorf("Get(NOEQ) = %q, %v; want set and empty", v, ok)
	}
	l.Set("C", "4")
	l.Set("B", "5")
	l.Unset("EMPTY")
	l.Unset("missing")
	want := []string{"A=3", "B=5", "NOEQ=", "C=4"}
	if got := l.Environ(); !slices.Equal(got, want) {
		t.Errorf("Environ() = %q; want %q", got, want)
	}
	if _, ok := l.Get("EMPTY"); ok {
		t.Error("EMPTY still set after Unset")
	}
}

func TestZeroList(t *testing.T) {
	var l List
	l.Set("X", "1")
	l.Unset("X")
	l.Set("X", "2")
	if got := l.Environ(); !slices.Equal(got, []string{"X=2"}) {
		t.Errorf("Environ() = %q; want [X=2]", got)
	}
}
