package store

import (
	"bytes"
	"net"
	"testing"
	"time"
)

func TestSetGetWait(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	srv := NewServer()
	go srv.Serve(ln)
	a, err := Dial(ln.Addr().String(), time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	b, err := Dial(ln.Addr().String(), time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	if _, ok, err := b.Get("id"); ok || err != nil {
		t.Fatalf("Get before Set = %v, %v; want absent", ok, err)
	}
	id := bytes.Repeat([]byte{0, 7, 255}, 43) // 129 bytes, zeros included
	go func() {
		time.Sleep(50 * time.Millisecond)
		a.Set("id", id)
	}()
	v, ok, err := b.Wait("id", 5*time.Second)
	if err != nil || !ok || !bytes.Equal(v, id) {
		t.Fatalf("Wait = %v, %v, %v; want the id", v, ok, err)
	}
	if v, ok := srv.Get("id"); !ok || !bytes.Equal(v, id) {
		t.Errorf("server Get = %v, %v", v, ok)
	}
	if _, ok, _ := b.Wait("never", 100*time.Millisecond); ok {
		t.Error("Wait for an absent key reported it present")
	}
}

func TestDialTimeout(t *testing.T) {
	ln, _ := net.Listen("tcp", "127.0.0.1:0")
	addr := ln.Addr().String()
	ln.Close()
	if _, err := Dial(addr, 200*time.Millisecond); err == nil {
		t.Fatal("Dial to a closed port succeeded")
	}
}
