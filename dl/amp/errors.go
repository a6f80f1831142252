package amp

import (
	"errors"
	"fmt"
)

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

// ErrConfig is what every *ConfigError unwraps to.
var ErrConfig = errors.New("amp: grad scaler factor out of range")

// ConfigError reports a GradScalerConfig field out of range, as
// torch.amp.GradScaler asserts ("The growth factor must be > 1.0.").
// NewGradScaler panics with it: the calling code is wrong.
type ConfigError struct {
	Field string  // "InitScale", "GrowthFactor", "BackoffFactor" or "GrowthInterval"
	Value float64 // the value given
	Want  string  // the valid range, e.g. "> 1"
}

// Error returns "amp: NewGradScaler: Field = value; want range".
func (e *ConfigError) Error() string {
	return fmt.Sprintf("amp: NewGradScaler: %s = %v; want %s", e.Field, e.Value, e.Want)
}

// Unwrap returns ErrConfig.
func (e *ConfigError) Unwrap() error { return ErrConfig }
