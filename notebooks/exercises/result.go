package exercises

import (
	"fmt"
	"strconv"
	"strings"
)

// Result is the verdict on one exercise: its label ("Ejercicio 1"),
// whether the answer is right, and what to print (the confirmation, with
// the value found, or the hint).
type Result struct {
	Label string // "Ejercicio 1"
	OK    bool   // the answer is right
	Note  string // after "correcto" (may be empty), or the hint
	Blank bool   // the answer was left as the notebook gives it
}

// String is the line a notebook prints: "Ejercicio 1: correcto, 14 pasos."
// or "Ejercicio 1: todavía no. Pista: …".
func (r Result) String() string {
	switch {
	case r.OK && r.Note == "":
		return r.Label + ": correcto."
	case r.OK:
		return r.Label + ": correcto, " + r.Note
	case r.Blank:
		return r.Label + ": aún sin respuesta. " + r.Note
	}
	return r.Label + ": todavía no. Pista: " + r.Note
}

// correct returns a right Result with an optional note (formatted).
func correct(label, format string, args ...any) Result {
	return Result{Label: label, OK: true, Note: fmt.Sprintf(format, args...)}
}

// wrong returns a Result for a wrong answer with its hint (formatted).
func wrong(label, format string, args ...any) Result {
	return Result{Label: label, Note: fmt.Sprintf(format, args...)}
}

// blank returns a Result for an answer not yet written, with what to do
// (formatted).
func blank(label, format string, args ...any) Result {
	return Result{Label: label, Blank: true, Note: fmt.Sprintf(format, args...)}
}

// within reports whether got is within rel (relative) of want.
func within(got, want, rel float64) bool {
	d := got - want
	if d < 0 {
		d = -d
	}
	if want < 0 {
		want = -want
	}
	return d <= rel*want
}

// catch runs f and returns any panic it raised as an error (nil if none;
// dl.Catch re-panics what is not a dl error): a checker calls a student's
// function through it, so that one that panics gets a hint instead of
// stopping the notebook.
func catch(f func()) (err error) {
	defer func() {
		if r := recover(); r != nil {
			if e, ok := r.(error); ok {
				err = e
				return
			}
			err = fmt.Errorf("%v", r)
		}
	}()
	f()
	return nil
}

// decimal formats one number (format has a single verb, before any other
// point) with a decimal comma, as Spanish writes it: decimal("%.1f", 26.84)
// is "26,8".
func decimal(format string, x float64) string {
	return strings.Replace(fmt.Sprintf(format, x), ".", ",", 1)
}

// thousands writes n with a point between thousands, as Spanish prose
// does: thousands(8889) is "8.889".
func thousands(n int) string {
	s := strings.TrimPrefix(strconv.Itoa(n), "-")
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "." + s[i:]
	}
	if n < 0 {
		return "-" + s
	}
	return s
}
