package bigdata

import (
	"strings"
	"testing"
)

func TestResultColumnAndStrings(t *testing.T) {
	r := &Result{Columns: []string{"k", "v"}, Rows: [][]any{{"a", 1.5}, {"b", nil}}}
	v, err := r.Column("v")
	if err != nil || v[0] != 1.5 || v[1] != nil {
		t.Errorf("Column(v) = %v, %v", v, err)
	}
	if _, err := r.Column("x"); err == nil || !strings.Contains(err.Error(), "columns: k, v") {
		t.Errorf("Column(x) error = %v; want it to list the columns", err)
	}
	if s := r.Strings(); s[0][1] != "1.5" || s[1][1] != "NULL" {
		t.Errorf("Strings = %v", s)
	}
}
