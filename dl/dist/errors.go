package dist

import (
	"errors"
	"fmt"
	"strings"
	"time"
)

// ErrAborted is wrapped by every error a rank gets because the group was
// aborted: another rank failed, panicked or called a mismatched collective,
// a deadlock was detected, or the timeout expired. errors.As on the same
// error also finds the cause (a *RankError, *MismatchError, ...).
var ErrAborted = errors.New("dist: group aborted")

// ErrDeadlock is the cause of an abort when every running rank waits in a
// dist call that nothing can complete (for example two ranks that both
// Recv from each other, or a rank that returned without joining a
// collective the others are in).
var ErrDeadlock = errors.New("dist: deadlock")

// ErrTimeout is the cause of an abort when one wait lasted longer than
// Config.Timeout; the cause is a *TimeoutError, which wraps it.
var ErrTimeout = errors.New("dist: timeout")

// AbortNotice is the line an MPI rank writes to its stderr just before it
// calls MPI_Abort. The launcher reads it to name the rank that ended the
// job when mpirun's own report of the abort is lost (Open MPI 4 sometimes
// fails to print it: "ORTE_ERROR_LOG: Data unpack would read past end of
// buffer ... show_help.c").
func AbortNotice(rank int) string {
	return fmt.Sprintf("dist: rank %d aborts the MPI job (MPI_Abort)", rank)
}

// TimeoutError is the cause of an abort when a rank waited in a dist call
// longer than Config.Timeout. Missing names the ranks the wait was for:
// those that never entered the call (they compute, or hang, outside dist),
// or, when every rank entered it, the peer the rank waited on.
type TimeoutError struct {
	Group   string        // the group of the call
	Call    string        // e.g. "all-reduce #3"
	Missing []int         // world ranks that did not arrive
	Waiting []int         // world ranks that waited for them
	Waited  time.Duration // the timeout
}

// Error names the missing ranks first: they are the ones to look at.
func (e *TimeoutError) Error() string {
	return fmt.Sprintf("dist: timeout: %s did not arrive at %s of %s within %v (Config.Timeout); %s waited for %s: "+
		"it is busy or stuck outside dist, or died", plural("rank", e.Missing), e.Call, e.Group, e.Waited,
		plural("rank", e.Waiting), pronoun(e.Missing))
}

// Unwrap returns ErrTimeout.
func (e *TimeoutError) Unwrap() error { return ErrTimeout }

// plural formats "rank 2" or "ranks 0, 1, 3".
func plural(word string, xs []int) string {
	if len(xs) == 1 {
		return fmt.Sprintf("%s %d", word, xs[0])
	}
	s := make([]string, len(xs))
	for i, x := range xs {
		s[i] = fmt.Sprint(x)
	}
	return word + "s " + strings.Join(s, ", ")
}

func pronoun(xs []int) string {
	if len(xs) == 1 {
		return "it"
	}
	return "them"
}

// RankError is how Run reports the rank that failed first: it returned an
// error or panicked.
type RankError struct {
	Rank  int    // world rank
	Err   error  // the returned error, or the panic value if it is an error
	Panic any    // the panic value; nil if the rank returned an error
	Stack []byte // the panicking goroutine's stack; nil if no panic
}

// Error names the rank and the cause.
func (e *RankError) Error() string {
	if e.Panic != nil {
		return fmt.Sprintf("dist: rank %d panicked: %v", e.Rank, e.Panic)
	}
	return fmt.Sprintf("dist: rank %d: %v", e.Rank, e.Err)
}

// Unwrap returns the rank's error (or the panic value when it is an error).
func (e *RankError) Unwrap() error { return e.Err }

// MismatchError reports ranks of one group that called different
// collectives at the same position of their call sequence, or the same
// collective with different sizes, ops, roots or element types.
type MismatchError struct {
	Group      string // the group's name
	Call       int64  // position in the group's collective sequence (0-based)
	Rank, Peer int    // group ranks that disagree
	Got, Want  string // Rank's call and Peer's call
}

// Error describes both calls and the rule.
func (e *MismatchError) Error() string {
	return fmt.Sprintf("dist: collective mismatch in group %s, call #%d: rank %d called %s, rank %d called %s "+
		"(every rank of a group must make the same collective calls, in the same order, with the same sizes)",
		e.Group, e.Call, e.Rank, e.Got, e.Peer, e.Want)
}

// abortedError is what ranks get after an abort: it wraps ErrAborted and
// the cause.
type abortedError struct{ cause error }

func (e *abortedError) Error() string {
	return "group aborted: " + strings.TrimPrefix(e.cause.Error(), "dist: ")
}

func (e *abortedError) Unwrap() []error { return []error{ErrAborted, e.cause} }

// opError prefixes err with the operation and the rank, as in
// "dist: all-reduce on rank 1: group aborted: rank 2 panicked: boom".
func opError(op string, rank int, err error) error {
	return fmt.Errorf("dist: %s on rank %d: %w", op, rank, err)
}
