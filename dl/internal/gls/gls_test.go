package gls

import (
	"runtime"
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

// deepGoid calls goid n frames down, with enough stack per frame that the
// runtime moves the goroutine's stack on the way.
func deepGoid(n int) int64 {
	var pad [512]byte
	if n == 0 {
		return goid() + int64(pad[0])
	}
	return deepGoid(n-1) + int64(pad[n%len(pad)])
}

// TestGoidStable checks that a goroutine keeps its goid when its stack
// grows and is collected, and that 50 live goroutines have 50 distinct ones.
func TestGoidStable(t *testing.T) {
	a := goid()
	if b := deepGoid(2000); a != b {
		t.Fatalf("goid() = %d, and %d after the stack grew; want the same", a, b)
	}
	runtime.GC()
	if b := goid(); a != b {
		t.Fatalf("goid() = %d, and %d after a GC; want the same", a, b)
	}
	const n = 50
	ids := make(chan int64, n)
	release := make(chan struct{})
	for range n {
		go func() { ids <- goid(); <-release }()
	}
	seen := map[int64]bool{}
	for range n {
		seen[<-ids] = true
	}
	close(release)
	if len(seen) != n {
		t.Errorf("%d live goroutines have %d distinct goids; want %d", n, len(seen), n)
	}
}
