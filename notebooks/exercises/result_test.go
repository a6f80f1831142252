package exercises

import (
	"errors"
	"strings"
	"testing"
)

// expect checks a checker's verdict: right (ok), blank (isBlank) or wrong,
// a note containing hint, and a printable line that starts with the label.
// A blank answer's note must be its own, not the hint of a wrong answer.
func expect(t *testing.T, what string, r Result, ok, isBlank bool, hint string) {
	t.Helper()
	if r.OK != ok || r.Blank != isBlank || !strings.Contains(r.Note, hint) {
		t.Errorf("%s = %q (OK %v, Blank %v); want OK %v, Blank %v, a note with %q", what, r.String(), r.OK, r.Blank, ok, isBlank, hint)
	}
	if r.Label == "" || !strings.HasPrefix(r.String(), r.Label+": ") {
		t.Errorf("%s: no label or line: %+v", what, r)
	}
	if !r.OK && r.Note == "" {
		t.Errorf("%s: a wrong or blank answer needs a hint: %+v", what, r)
	}
}

func TestResultString(t *testing.T) {
	for _, c := range []struct {
		r    Result
		want string
	}{
		{correct("Ejercicio 1", ""), "Ejercicio 1: correcto."},
		{correct("Ejercicio 2", "%d pasos.", 14), "Ejercicio 2: correcto, 14 pasos."},
		{wrong("Ejercicio 3", "divide entre %d.", 2), "Ejercicio 3: todavía no. Pista: divide entre 2."},
		{blank("Ejercicio 4", "Escribe tu respuesta en x."), "Ejercicio 4: aún sin respuesta. Escribe tu respuesta en x."},
	} {
		if got := c.r.String(); got != c.want {
			t.Errorf("%+v.String() = %q; want %q", c.r, got, c.want)
		}
	}
}

func TestWithinAndCatch(t *testing.T) {
	if !within(104, 100, 0.05) || within(106, 100, 0.05) || !within(-98, -100, 0.05) {
		t.Error("within: wrong tolerance")
	}
	if err := catch(func() { panic("boom") }); err == nil || err.Error() != "boom" {
		t.Errorf("catch(panic string) = %v", err)
	}
	e := errors.New("x")
	if err := catch(func() { panic(e) }); err != e {
		t.Errorf("catch(panic error) = %v", err)
	}
	if err := catch(func() {}); err != nil {
		t.Errorf("catch(no panic) = %v", err)
	}
}

func TestSpanishNumbers(t *testing.T) {
	for n, want := range map[int]string{0: "0", 999: "999", 1000: "1.000", 8889: "8.889", 6400000: "6.400.000", -1234: "-1.234", 1234567890: "1.234.567.890"} {
		if got := thousands(n); got != want {
			t.Errorf("thousands(%d) = %q; want %q", n, got, want)
		}
	}
	for _, c := range []struct {
		format string
		x      float64
		want   string
	}{{"%.1f", 26.84, "26,8"}, {"%.1f GB.", 2.25, "2,2 GB."}, {"%g", 1e6, "1e+06"}, {"%.2f", -0.5, "-0,50"}} {
		if got := decimal(c.format, c.x); got != c.want {
			t.Errorf("decimal(%q, %v) = %q; want %q", c.format, c.x, got, c.want)
		}
	}
}
