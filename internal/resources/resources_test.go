package resources

import (
	"errors"
	"slices"
	"strings"
	"testing"
	"time"
)

// closer records the order of Close calls.
type closer struct {
	name  string
	order *[]string
	err   error
	block chan struct{}
}

func (c *closer) Close() error {
	if c.block != nil {
		<-c.block
	}
	*c.order = append(*c.order, c.name)
	return c.err
}

func TestCloseAllClosesNewestFirstAndForgets(t *testing.T) {
	var order []string
	a := &closer{name: "a", order: &order}
	b := &closer{name: "b", order: &order, err: errors.New("boom")}
	c := &closer{name: "c", order: &order}
	Track("server a", a)
	Track("session b", b)
	forgetC := Track("file c", c)
	forgetC()
	forgetC() // twice: forgets once
	if got := Open(); !slices.Equal(got, []string{"server a", "session b"}) {
		t.Fatalf("Open() = %v", got)
	}
	err := CloseAll(time.Second)
	if !slices.Equal(order, []string{"b", "a"}) {
		t.Errorf("closed %v; want b then a (newest first), and not the forgotten c", order)
	}
	if err == nil || !strings.Contains(err.Error(), "close session b: boom") {
		t.Errorf("err = %v; want the failure named", err)
	}
	if got := Open(); len(got) != 0 {
		t.Errorf("after CloseAll, Open() = %v", got)
	}
}

func TestCloseAllBoundsEachClose(t *testing.T) {
	var order []string
	stuck := &closer{name: "stuck", order: &order, block: make(chan struct{})}
	defer close(stuck.block)
	Track("stuck broker", stuck)
	start := time.Now()
	err := CloseAll(50 * time.Millisecond)
	if err == nil || !strings.Contains(err.Error(), "close stuck broker: no answer within 50ms") {
		t.Errorf("err = %v", err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("CloseAll waited %v for a Close that never returns", d)
	}
}
