// Package exercises holds the checkers of the course notebooks'
// exercises: a notebook's last cells call them with the student's answer
// (a number, a query, a function) and print the Result, a line in Spanish
// that says whether the answer is right and, if not, a hint for the
// mistake made — a blank answer (the cell as the notebook gives it) gets a
// hint of its own, distinct from a wrong one.
//
// The checkers compute the expected answer themselves, from the course's
// data (package facts) and dl, so that no cell of a notebook prints it
// above its exercise; their tests (one file per notebook) run each
// checker with the reference solution, a wrong answer and a blank one.
// Files are named after the notebook: nb07.go checks 07-practicas-de-
// eficiencia.ipynb.
package exercises
