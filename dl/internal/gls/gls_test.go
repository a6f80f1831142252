package gls

import (
	"sync"
	"testing"
)

func TestVarScopes(t *testing.T) {
	v := New(1)
	if got := v.Get(); got != 1 {
		t.Fatalf("Get() = %d outside scopes; want 1", got)
	}
	v.With(2, func() {
		if got := v.Get(); got != 2 {
			t.Errorf("Get() = %d in scope; want 2", got)
		}
		v.With(3, func() {
			if got := v.Get(); got != 3 {
				t.Errorf("Get() = %d in nested scope; want 3", got)
			}
		})
		if got := v.Get(); got != 2 {
			t.Errorf("Get() = %d after nested scope; want 2", got)
		}
		done := make(chan int)
		go func() { done <- v.Get() }() // a new goroutine does not inherit the scope
		if got := <-done; got != 1 {
			t.Errorf("Get() in a goroutine started in scope = %d; want 1", got)
		}
	})
	if got, act := v.Get(), v.Active(); got != 1 || act {
		t.Errorf("after scope: Get() = %d, Active() = %v; want 1, false", got, act)
	}
}

func TestVarRestoresOnPanic(t *testing.T) {
	v := New("default")
	func() {
		defer func() { _ = recover() }()
		v.With("inside", func() { panic("boom") })
	}()
	if got := v.Get(); got != "default" || v.Active() {
		t.Errorf("after panicking scope: Get() = %q, Active() = %v; want \"default\", false", got, v.Active())
	}
}

func TestVarGoroutinesIndependent(t *testing.T) {
	v := New(0)
	var wg sync.WaitGroup
	errs := make(chan string, 8)
	for g := 1; g <= 8; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			v.With(g, func() {
				for range 100 {
					if got := v.Get(); got != g {
						errs <- "goroutine saw another goroutine's value"
						return
					}
				}
			})
		}()
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
}

func TestGoid(t *testing.T) {
	a := goid()
	ch := make(chan int64)
	go func() { ch <- goid() }()
	if b := <-ch; a <= 0 || b <= 0 || a == b {
		t.Errorf("goid() = %d here and %d in another goroutine; want distinct positive ids", a, b)
	}
}

func BenchmarkGetNoScope(b *testing.B) {
	v := New(true)
	for b.Loop() {
		_ = v.Get()
	}
}

func BenchmarkGetInScope(b *testing.B) {
	v := New(true)
	v.With(false, func() {
		for b.Loop() {
			_ = v.Get()
		}
	})
}
