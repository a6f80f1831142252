package exercises

import (
	"encoding/json"
	"math"
	"os/exec"
	"syscall"
	"time"

	"github.com/dlbd/dlbd/dl/dist"
	"github.com/dlbd/dlbd/dl/dist/program"
)

// The checkers of 11-mas-alla-de-una-maquina.ipynb.

// nb11Procs is how many processes LaunchOnProcesses asks for: few, so that
// the check takes seconds (the program is built, then mpirun starts it).
const nb11Procs = 2

// LaunchOnProcesses checks exercise 1 of notebook 11: launch(n) must run
// the notebook's training function on n processes (program.Run, with
// mpirun) and return every rank's result. The checker calls launch(2),
// requires that it started child processes (their CPU time, from
// getrusage, grows) and compares each rank's result, field by field
// through its JSON form, with train on 2 goroutine ranks
// (program.InProcess), within 1e-12: MPI adds in its own order.
func LaunchOnProcesses[R any](launch func(n int) ([]R, error), train func(r *dist.Rank) (R, error)) Result {
	const label = "Ejercicio 1"
	if launch == nil {
		return blank(label, "Completa la función lanzar.")
	}
	before := nb11ChildrenCPU()
	start := time.Now()
	var got []R
	var err error
	if p := catch(func() { got, err = launch(nb11Procs) }); p != nil {
		return wrong(label, "tu función entró en pánico: %v", p)
	}
	took := time.Since(start)
	switch {
	case got == nil && err == nil:
		return blank(label, "lanzar devuelve nil: escribe en ella la llamada que ejecuta Entrenar en n procesos y devuelve sus resultados.")
	case err != nil:
		if _, lerr := exec.LookPath("mpirun"); lerr != nil {
			return wrong(label, "no se pudo lanzar (%v): Open MPI no está instalado (sudo apt-get install openmpi-bin libopenmpi3).", err)
		}
		return wrong(label, "lanzar(%d) devolvió un error: %v", nb11Procs, err)
	case len(got) != nb11Procs:
		return wrong(label, "lanzar(%d) devuelve %d resultados: uno por rank, con los n procesos que pide el argumento.", nb11Procs, len(got))
	case nb11ChildrenCPU() == before:
		return wrong(label, "lanzar no ha arrancado ningún proceso: program.InProcess y dist.Run ejecutan goroutines de este proceso; program.Run lanza procesos.")
	}
	want, err := program.InProcess(nb11Procs, train)
	if err != nil {
		return wrong(label, "el entrenamiento de referencia en goroutines falló: %v", err)
	}
	for r := range got {
		if !nb11Close(got[r], want[r], 1e-12) {
			return wrong(label, "el resultado del rank %d no es el del mismo entrenamiento en %d goroutines: lanza la función del cuaderno y devuelve sus resultados tal cual, por rank.", r, nb11Procs)
		}
	}
	return correct(label, "%d procesos (%s, con la compilación del programa) dan el mismo entrenamiento que %d goroutines.",
		nb11Procs, decimal("%.1f s", took.Seconds()), nb11Procs)
}

// nb11ChildrenCPU is the CPU time of this process's children that have
// ended (getrusage RUSAGE_CHILDREN): it grows when a call started and
// waited for processes.
func nb11ChildrenCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_CHILDREN, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// nb11Close reports whether a and b have the same JSON form, numbers
// within tol of each other.
func nb11Close(a, b any, tol float64) bool {
	var va, vb any
	for _, c := range []struct {
		in  any
		out *any
	}{{a, &va}, {b, &vb}} {
		data, err := json.Marshal(c.in)
		if err != nil || json.Unmarshal(data, c.out) != nil {
			return false
		}
	}
	return nb11CloseValues(va, vb, tol)
}

// nb11CloseValues compares two decoded JSON values.
func nb11CloseValues(a, b any, tol float64) bool {
	switch a := a.(type) {
	case float64:
		b, ok := b.(float64)
		return ok && math.Abs(a-b) <= tol
	case []any:
		b, ok := b.([]any)
		if !ok || len(a) != len(b) {
			return false
		}
		for i := range a {
			if !nb11CloseValues(a[i], b[i], tol) {
				return false
			}
		}
		return true
	case map[string]any:
		b, ok := b.(map[string]any)
		if !ok || len(a) != len(b) {
			return false
		}
		for k, v := range a {
			if !nb11CloseValues(v, b[k], tol) {
				return false
			}
		}
		return true
	}
	return a == b
}
