//go:build !amd64 || dlbd_noasm

package gls

import "runtime"

// goid returns the current goroutine's id, parsed from the first line of
// its stack trace: "goroutine 18 [running]:".
func goid() int64 {
	var buf [32]byte
	n := runtime.Stack(buf[:], false)
	var id int64
	for _, c := range buf[len("goroutine "):n] {
		if c < '0' || c > '9' {
			break
		}
		id = id*10 + int64(c-'0')
	}
	return id
}
