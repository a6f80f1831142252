package facts

import (
	"fmt"
	"slices"
)

// Status says how far a value was checked against its source. It is the
// dataset's status column; its string value is the column's wording.
type Status string

// The four statuses of the dataset (README of the facts dataset).
const (
	// Verified: the value was read in the cited source itself (the paper,
	// an official page or dataset, or a faithful full-text copy of it).
	Verified Status = "verified"
	// Secondary: the value was read only in secondary sources (news, blogs,
	// wikis, reproductions of paywalled charts). Probably right; cite with care.
	Secondary Status = "secondary"
	// Derived: the value was computed from sourced values; the formula is in
	// the row's note.
	Derived Status = "derived"
	// Unverified: the value could not be confirmed in any source. It must
	// not be shown without saying so.
	Unverified Status = "unverified"
)

// statuses lists the valid statuses from most to least reliable.
var statuses = []Status{Verified, Derived, Secondary, Unverified}

// ParseStatus returns the Status spelled s, or an error for any other text.
func ParseStatus(s string) (Status, error) {
	if st := Status(s); slices.Contains(statuses, st) {
		return st, nil
	}
	return "", fmt.Errorf("facts: unknown status %q (want one of verified, secondary, derived, unverified)", s)
}

// IsVerified reports whether s is Verified.
func (s Status) IsVerified() bool { return s == Verified }

// rank orders statuses from most (0) to least reliable.
func (s Status) rank() int { return slices.Index(statuses, s) }

// Spanish returns the status as the course's notebooks print it next to a
// value: "verificado", "calculado", "fuente secundaria" or "SIN
// VERIFICAR" (any other text is returned as it is).
func (s Status) Spanish() string {
	switch s {
	case Verified:
		return "verificado"
	case Derived:
		return "calculado"
	case Secondary:
		return "fuente secundaria"
	case Unverified:
		return "SIN VERIFICAR"
	}
	return string(s)
}
