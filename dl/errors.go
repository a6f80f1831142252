package dl

import (
	"errors"
	"fmt"
	"strings"
)

// Sentinel errors: every typed error of dl unwraps to one of them, so
// callers test with errors.Is(err, dl.ErrShape).
var (
	ErrShape       = errors.New("dl: shape mismatch")
	ErrDevice      = errors.New("dl: device mismatch")
	ErrDType       = errors.New("dl: dtype mismatch")
	ErrOutOfMemory = errors.New("dl: out of memory")
	ErrReleased    = errors.New("dl: tensor used after release")
	ErrAutograd    = errors.New("dl: autograd misuse")
	ErrValue       = errors.New("dl: invalid value")
)

// ShapeError reports tensors whose shapes do not fit an operation.  Ops
// panic with it; Unwrap returns ErrShape.
type ShapeError struct {
	Op     string  // the operation, e.g. "MatMul"
	Shapes [][]int // the shapes involved, in argument order
	Reason string  // what is wrong
	Fix    string  // how to fix it ("" if there is no general advice)
}

// Error returns the message: "dl: Op: kind: reason; fix".
func (e *ShapeError) Error() string { return format(e.Op, "shape mismatch", e.Reason, e.Fix) }

// Unwrap returns ErrShape.
func (e *ShapeError) Unwrap() error { return ErrShape }

// DeviceError reports tensors on devices an operation cannot combine, or a
// device that does not exist or failed.  Unwrap returns ErrDevice.
type DeviceError struct {
	Op      string
	Devices []Device
	Reason  string
	Fix     string
}

// Error returns the message: "dl: Op: kind: reason; fix".
func (e *DeviceError) Error() string { return format(e.Op, "device mismatch", e.Reason, e.Fix) }

// Unwrap returns ErrDevice.
func (e *DeviceError) Unwrap() error { return ErrDevice }

// DTypeError reports tensors whose dtypes do not fit an operation.
// Unwrap returns ErrDType.
type DTypeError struct {
	Op     string
	DTypes []DType
	Reason string
	Fix    string
}

// Error returns the message: "dl: Op: kind: reason; fix".
func (e *DTypeError) Error() string { return format(e.Op, "dtype mismatch", e.Reason, e.Fix) }

// Unwrap returns ErrDType.
func (e *DTypeError) Unwrap() error { return ErrDType }

// ReleasedError reports a tensor used after its memory went back to the
// allocator (by Release, ZeroGrad, or Backward freeing the graph).
// Unwrap returns ErrReleased.
type ReleasedError struct {
	Op       string
	Reason   string  // who released it
	Value    float64 // the value of a one-element tensor Backward released (HasValue)
	HasValue bool
}

// Error returns the message: "dl: Op: kind: reason; fix".
func (e *ReleasedError) Error() string {
	fix := "call t.Retain() before Backward to keep an intermediate tensor, or keep a copy with t.Clone()"
	if e.HasValue {
		fix = fmt.Sprintf("its value (%v) is still readable with Item(); %s", e.Value, fix)
	}
	return format(e.Op, "tensor used after release", "it was released by "+e.Reason, fix)
}

// Unwrap returns ErrReleased.
func (e *ReleasedError) Unwrap() error { return ErrReleased }

// AutogradError reports a misuse of autograd, such as Backward on a
// tensor that does not require grad.  Unwrap returns ErrAutograd.
type AutogradError struct {
	Op     string
	Reason string
	Fix    string
}

// Error returns the message: "dl: Op: kind: reason; fix".
func (e *AutogradError) Error() string { return format(e.Op, "autograd", e.Reason, e.Fix) }

// Unwrap returns ErrAutograd.
func (e *AutogradError) Unwrap() error { return ErrAutograd }

// ValueError reports an argument out of the range an operation accepts
// that is not a shape, dtype or device: a nil *Tensor, a probability, a
// range, a configuration field, like PyTorch's ValueError.  Constructors
// of dl/nn, dl/optim and dl/data panic with it too.  Unwrap returns
// ErrValue.
type ValueError struct {
	Op     string // the operation or constructor, e.g. "Arange", "optim.NewSGD"
	Reason string // what is wrong, naming the value
	Fix    string // how to fix it
}

// Error returns the message: "dl: Op: invalid value: reason; fix".
func (e *ValueError) Error() string { return format(e.Op, "invalid value", e.Reason, e.Fix) }

// Unwrap returns ErrValue.
func (e *ValueError) Unwrap() error { return ErrValue }

// format builds "dl: Op: kind: reason; fix".
func format(op, kind, reason, fix string) string {
	var b strings.Builder
	b.WriteString("dl: ")
	if op != "" {
		b.WriteString(op)
		b.WriteString(": ")
	}
	b.WriteString(kind)
	if reason != "" {
		b.WriteString(": ")
		b.WriteString(reason)
	}
	if fix != "" {
		b.WriteString("; ")
		b.WriteString(fix)
	}
	return b.String()
}

// Catch runs fn and returns the dl error it panicked with (a *ShapeError,
// *DeviceError, *DTypeError, *OutOfMemoryError, *ReleasedError,
// *AutogradError, *ValueError or *CanceledError), or nil if it returned
// normally.  Any other panic is
// re-panicked.  Like gonum's mat.Maybe.
func Catch(fn func()) (err error) {
	defer func() {
		r := recover()
		if r == nil {
			return
		}
		if e, ok := r.(error); ok && isDLError(e) {
			err = e
			return
		}
		panic(r)
	}()
	fn()
	return nil
}

func isDLError(e error) bool {
	for _, s := range []error{ErrShape, ErrDevice, ErrDType, ErrOutOfMemory, ErrReleased, ErrAutograd, ErrValue, ErrCanceled} {
		if errors.Is(e, s) {
			return true
		}
	}
	return false
}

// shapeErr builds a *ShapeError with a formatted reason.
func shapeErr(op string, shapes [][]int, fix, reasonFormat string, args ...any) *ShapeError {
	return &ShapeError{Op: op, Shapes: shapes, Reason: fmt.Sprintf(reasonFormat, args...), Fix: fix}
}
