package program_test

import (
	"fmt"
	"os"
	"testing"

	"github.com/dlbd/dlbd/dl/dist"
	"github.com/dlbd/dlbd/dl/dist/program"
	"github.com/dlbd/dlbd/dl/dist/program/ddptrain"
)

// helperEnv, when set, makes the test binary one rank of a job started
// by a test (hosts_test.go): program.Main of the ddptrain function it
// names, as the program that program.Run builds would run it.
const helperEnv = "DLBD_PROGRAM_HELPER"

// helperFuncs are the functions a helper rank can run.
var helperFuncs = map[string]func(r *dist.Rank) (ddptrain.Result, error){
	"ddp":   ddptrain.DDP,
	"zero3": ddptrain.ZeRO3,
}

func TestMain(m *testing.M) {
	if name := os.Getenv(helperEnv); name != "" {
		fn, ok := helperFuncs[name]
		if !ok {
			fmt.Fprintf(os.Stderr, "%s=%s: no such function\n", helperEnv, name)
			os.Exit(2)
		}
		if err := program.Main(fn); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}
