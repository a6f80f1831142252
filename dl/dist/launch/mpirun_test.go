package launch

import (
	"bytes"
	"strings"
	"testing"

	"github.com/dlbd/dlbd/dl/dist"
)

// feed runs mpirun's output lines through an mpiJob and returns its
// failure and what it wrote to stdout and stderr.
func feed(lines ...string) (*RankFailure, string, string) {
	var out, errw bytes.Buffer
	j := &mpiJob{out: &lockedWriter{w: &out}, errw: &lockedWriter{w: &errw}}
	for _, l := range lines {
		j.line(l)
	}
	return j.failure(), out.String(), errw.String()
}

// TestMPIJobNamesAbortingRank: the rank is read from mpirun's report of
// the abort when it prints one, and from the rank's own dist.AbortNotice
// when mpirun's report is lost, as Open MPI 4 does at times (this failed
// a notebook in CI: only the ORTE_ERROR_LOG line came).
func TestMPIJobNamesAbortingRank(t *testing.T) {
	cause := "[1,2]<stderr>:dist: rank 2: rank 2 ran out of data at step 3"
	notice := "[1,2]<stderr>:" + dist.AbortNotice(2)
	for _, tc := range []struct {
		name   string
		mpirun []string
	}{
		{"mpirun reports it", []string{
			"MPI_ABORT was invoked on rank 2 in communicator MPI_COMM_WORLD",
			"with errorcode 1.",
		}},
		{"mpirun's report lost", []string{
			"[vm:32427] [[4693,0],0] ORTE_ERROR_LOG: Data unpack would read past end of buffer in file ../../../orte/util/show_help.c at line 501",
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			lines := append([]string{"[1,0]<stdout>:step 1", cause, notice}, tc.mpirun...)
			f, out, errw := feed(lines...)
			if f == nil || f.Rank != 2 || f.Status != "called MPI_Abort" {
				t.Fatalf("failure = %+v; want rank 2, called MPI_Abort", f)
			}
			if f.Cause != "dist: rank 2: rank 2 ran out of data at step 3" {
				t.Errorf("Cause = %q; want the rank's error line", f.Cause)
			}
			if out != "[rank 0] step 1\n" {
				t.Errorf("stdout = %q", out)
			}
			if !strings.Contains(errw, "[rank 2] "+dist.AbortNotice(2)) || !strings.Contains(errw, "[mpirun] ") {
				t.Errorf("stderr lacks the rank's or mpirun's lines:\n%s", errw)
			}
		})
	}
}

// TestMPIJobUnknownFailure: without mpirun's report or an abort notice
// (a notice on stdout, or one naming another rank, does not count) no
// rank is named.
func TestMPIJobUnknownFailure(t *testing.T) {
	f, _, _ := feed(
		"[1,1]<stdout>:"+dist.AbortNotice(1),
		"[1,3]<stderr>:"+dist.AbortNotice(2),
		"mpirun noticed something",
	)
	if f != nil {
		t.Fatalf("failure = %+v; want nil", f)
	}
}
