package launch

import "fmt"

// RankFailure is how Run reports the rank that ended the job.
type RankFailure struct {
	Rank   int    // global rank (RANK)
	PID    int    // its process id; 0 when mpirun did not say
	Status string // "exited with status 1", "was killed by signal 9 (killed)", "called MPI_Abort"
	Cause  string // the rank's own last error line, when it printed one
}

// Error names the rank first.
func (e *RankFailure) Error() string {
	s := fmt.Sprintf("launch: rank %d", e.Rank)
	if e.PID != 0 {
		s += fmt.Sprintf(" (pid %d)", e.PID)
	}
	s += " " + e.Status + "; the job was stopped"
	if e.Cause != "" {
		s += ": " + e.Cause
	}
	return s
}
