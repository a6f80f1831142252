// Package cellpos owns where a cell's code is: the one place that knows
// how the kernel names a cell's file, package and body in generated code,
// reads those names back from the compiler's output and from stack traces,
// and writes the location a student reads ("Cell [3] Line 2:5").
//
// # Overview
//
// The stateful kernel turns cell N into a package [Package]("cellN") of
// module [Module], whose body is the function [RunFunc], with //line
// directives naming the file [File](N); so the go command reports
// "dlbd-cell-N:L:C: message" and the runtime's stack traces
// "\tdlbd-cell-N:L +0x1d". [Parse] and [ParseStack] read those back into
// a [Pos]; [Pos.String], [At] and [TraceLine] write what the notebook
// shows. Change a failed cell's message here and every mode follows.
//
// # Errors
//
// Nothing here fails: [Parse] reports with ok whether a string starts with
// a cell position, and [ParseStack] skips the frames outside cell code.
//
// # Concepts
//
//   - Cell number: the cell's execution count when it ran, as Jupyter
//     shows it in "In [N]".
//   - GoNB's process mode writes its own "[[ Cell [N] Line L ]]" into the
//     traces of a cell's program; package kernel/frontend reads that format
//     (GoNB's fact) and writes with this package what the kernel shows.
package cellpos
