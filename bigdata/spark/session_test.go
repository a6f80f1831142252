package spark

import (
	"context"
	"testing"
	"time"
)

func TestSessionQuery(t *testing.T) {
	s := session(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	res, err := s.Query(ctx, "SELECT id % 3 AS k, count(*) AS n FROM range(10) GROUP BY k ORDER BY k")
	if err != nil {
		t.Fatal(err)
	}
	want := [][]any{{int64(0), int64(4)}, {int64(1), int64(3)}, {int64(2), int64(3)}}
	if len(res.Rows) != len(want) {
		t.Fatalf("Query = %v; want %v", res.Rows, want)
	}
	for i := range want {
		for j := range want[i] {
			if res.Rows[i][j] != want[i][j] {
				t.Errorf("row %d col %d = %#v; want %#v", i, j, res.Rows[i][j], want[i][j])
			}
		}
	}
}
