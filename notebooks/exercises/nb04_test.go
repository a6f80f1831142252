package exercises

import (
	"fmt"
	"testing"
)

// nb04Case is one answer given to a checker of notebook 04 and the verdict
// expected: OK, Blank, and a piece of the note.
type nb04Case struct {
	name   string
	result Result
	ok     bool
	blank  bool
	note   string
}

// nb04CheckCases runs the table of answers of the tests of notebooks 04–07: each
// case's Result must have the expected OK and Blank, and its note the
// expected text.
func nb04CheckCases(t *testing.T, cases []nb04Case) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) { expect(t, c.name, c.result, c.ok, c.blank, c.note) })
	}
}

func TestAllReduce64Seconds(t *testing.T) {
	// Reference solution: 2(n−1)/n · S/B with n = 64, S = 140 GB, B = 50 GB/s.
	right := 2 * 63.0 / 64 * 140e9 / 50e9
	nb04CheckCases(t, []nb04Case{
		{name: "right", result: AllReduce64Seconds(right), ok: true, note: "5,51 s"},
		{name: "rounded", result: AllReduce64Seconds(5.5), ok: true},
		{name: "wrong/n=8", result: AllReduce64Seconds(2 * 7.0 / 8 * 140e9 / 50e9), note: "n = 8"},
		{name: "wrong/no (n-1)/n", result: AllReduce64Seconds(2 * 140e9 / 50e9), note: "63/64"},
		{name: "wrong/no 2", result: AllReduce64Seconds(right / 2), note: "el 2"},
		{name: "wrong/bits", result: AllReduce64Seconds(right * 8), note: "bits por byte"},
		{name: "wrong/other", result: AllReduce64Seconds(1), note: "tu respuesta es 1 s"},
		{name: "blank", result: AllReduce64Seconds(0), blank: true, note: "segundos64"},
	})
}

func TestTPU7xChips(t *testing.T) {
	// Reference solution: ⌈16 · 70,55·10⁹ / 192·10⁹⌉ = ⌈5,88⌉ = 6.
	nb04CheckCases(t, []nb04Case{
		{name: "right", result: TPU7xChips(6), ok: true, note: "6 TPU7x"},
		{name: "wrong/floor", result: TPU7xChips(5), note: "hacia abajo"},
		{name: "wrong/weights only", result: TPU7xChips(1), note: "16 bytes por parámetro"},
		{name: "wrong/other", result: TPU7xChips(12), note: "Tu respuesta es 12"},
		{name: "blank", result: TPU7xChips(0), blank: true, note: "chipsTPU7x"},
	})
}

// The blank and wrong answers get different lines.
func TestNB04HintsDiffer(t *testing.T) {
	if AllReduce64Seconds(0).Note == AllReduce64Seconds(1).Note || TPU7xChips(0).Note == TPU7xChips(12).Note {
		t.Error("a blank answer and a wrong one got the same hint")
	}
}

func ExampleTPU7xChips() {
	fmt.Println(TPU7xChips(0))
	fmt.Println(TPU7xChips(6))
	// Output:
	// Ejercicio 2: aún sin respuesta. Escribe en chipsTPU7x el número de TPU7x: 16 bytes por parámetro (plan.Llama3_70B.Params().Total) entre la memoria de una TPU7x (acelerador("TPU7x").MemoryGB, en GB).
	// Ejercicio 2: correcto, 6 TPU7x, frente a 15 H100: solo los estados del modelo, sin activaciones.
}
