// Package envlist edits process environments, the "KEY=value" lists that
// os.Environ returns and exec.Cmd.Env takes, keeping the order of their keys.
//
// # Overview
//
// [Parse] reads a list into a [List]; [List.Get], [List.Set] and
// [List.Unset] edit it; [List.Environ] writes it back, each key once, in the
// order the keys first appeared (new keys at the end). The kernel launcher
// (package kernel) and the Jupyter client (package kernel/jupyter) both
// build the environment of a kernel this way.
//
// # Errors
//
// None: every list parses. An entry without "=" is a key with an empty
// value, as the C library's getenv would not see it at all; such entries do
// not occur in environments that os.Environ returns.
//
// # Concepts
//
//   - Duplicates: an environment may name a key twice; as in os/exec (and
//     the shell), the last value wins, and the key keeps its first position.
package envlist
