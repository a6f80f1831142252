package amp

import "errors"

// ErrState is what every *StateError unwraps to.
var ErrState = errors.New("amp: grad scaler used out of order")

// StateError reports a GradScaler method called out of order, like the
// RuntimeErrors of torch.amp.GradScaler ("unscale_() has already been
// called on this optimizer since the last update()").  The GradScaler
// panics with it: the calling code is wrong, not the environment.
//
// Course: "Prácticas de eficiencia computacional" (GradScaler).
type StateError struct {
	Op     string // the method called: "Unscale", "Step", "Update"
	Reason string // what was wrong
	Fix    string // how to call it instead
}

// Error returns "amp: Op: reason; fix".
func (e *StateError) Error() string { return "amp: " + e.Op + ": " + e.Reason + "; " + e.Fix }

// Unwrap returns ErrState.
func (e *StateError) Unwrap() error { return ErrState }
