package exercises

import (
	"errors"
	"testing"
)

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
