package cancel

import (
	"context"
	"errors"
	"testing"
	"time"
)

func TestSetAndErr(t *testing.T) {
	defer Set(nil)
	Set(nil)
	if err := Err(); err != nil {
		t.Fatalf("Err() with no context = %v; want nil", err)
	}
	Set(context.Background())
	if err := Err(); err != nil {
		t.Fatalf("Err() with context.Background = %v; want nil", err)
	}
	ctx, stop := context.WithCancel(context.Background())
	Set(ctx)
	if err := Err(); err != nil {
		t.Fatalf("Err() before cancel = %v; want nil", err)
	}
	stop()
	deadline := time.Now().Add(time.Second)
	for Err() == nil && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	if err := Err(); !errors.Is(err, context.Canceled) {
		t.Fatalf("Err() after cancel = %v; want context.Canceled", err)
	}
	Set(context.Background()) // the next cell: not cancelled any more
	if err := Err(); err != nil {
		t.Fatalf("Err() after a new Set = %v; want nil", err)
	}
}

func TestSetAlreadyDone(t *testing.T) {
	defer Set(nil)
	ctx, stop := context.WithCancelCause(context.Background())
	why := errors.New("interrupt button")
	stop(why)
	Set(ctx)
	if err := Err(); !errors.Is(err, context.Canceled) {
		t.Fatalf("Err() right after Set(done ctx) = %v; want context.Canceled at once", err)
	}
	if c := Cause(); c != why {
		t.Errorf("Cause() = %v; want %v", c, why)
	}
}

func TestCheckPanicsWithStopped(t *testing.T) {
	defer Set(nil)
	Check("noop") // not set: no panic
	ctx, stop := context.WithCancel(context.Background())
	stop()
	Set(ctx)
	defer func() {
		s, ok := recover().(*Stopped)
		if !ok || s.Op != "loop" || !errors.Is(s, context.Canceled) {
			t.Errorf("recovered %v; want *Stopped{Op: loop} wrapping context.Canceled", s)
		}
	}()
	Check("loop")
	t.Error("Check did not panic with a cancelled context")
}

func BenchmarkErr(b *testing.B) {
	ctx, stop := context.WithCancel(context.Background())
	defer stop()
	Set(ctx)
	defer Set(nil)
	for b.Loop() {
		if Err() != nil {
			b.Fatal("cancelled")
		}
	}
}
