package launch

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/dlbd/dlbd/dl/dist"
)

// yieldEnv is the environment variable of Open MPI's mpi_yield_when_idle.
const yieldEnv = "OMPI_MCA_mpi_yield_when_idle"

// runMPI runs the job under mpirun, which starts and watches the ranks:
// when one dies or calls MPI_Abort, mpirun kills the others and says which
// rank it was; runMPI turns that into a *RankFailure.
func runMPI(ctx context.Context, cfg Config, bin string, args []string) error {
	// PR_SET_PDEATHSIG fires when the thread that started the child ends,
	// not the process: keep this goroutine on its thread until the job is
	// over, or the Go runtime may retire the thread and kill the ranks.
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	mpirun, err := exec.LookPath("mpirun")
	if err != nil {
		return fmt.Errorf("launch: the mpi backend needs Open MPI's mpirun: sudo apt-get install openmpi-bin libopenmpi3")
	}
	// --bind-to none: mpirun would bind each rank to one core (its
	// default for up to 2 ranks), while the launcher gives a rank
	// GOMAXPROCS = CPUs / ranks; a 1-rank job ran its 2 threads on one
	// core (a DDP step 9.6 ms, against 6.0 on one thread), and beside a
	// busy process a bound rank cannot move off the core it shares.
	margs := []string{"-np", strconv.Itoa(cfg.NProcPerNode), "--oversubscribe", "--bind-to", "none", "--tag-output", "-x", dist.BackendEnv}
	// A rank waiting in a collective polls; mpi_yield_when_idle makes it
	// yield the core between polls, as Open MPI does by itself only with
	// more ranks than cores.  Beside a busy process, a rank that kept
	// polling held the core its peer needed: the 2-rank all-reduce of
	// 1 MiB took 0.43-2.0 ms polling and 0.35-0.43 ms yielding (0.29-0.35
	// ms either way on a quiet machine).  The environment's own setting
	// (OMPI_MCA_mpi_yield_when_idle) wins.
	if !hasEnv(yieldEnv, cfg.Env) {
		margs = append(margs, "--mca", "mpi_yield_when_idle", "1")
	}
	if os.Geteuid() == 0 {
		margs = append(margs, "--allow-run-as-root")
	}
	for _, kv := range cfg.Env {
		k, _, _ := strings.Cut(kv, "=")
		margs = append(margs, "-x", k)
	}
	cmd := exec.Command(mpirun, append(append(margs, bin), args...)...)
	cmd.Env = append(append(os.Environ(), cfg.Env...), dist.BackendEnv+"="+string(dist.MPI),
		"MASTER_ADDR="+cfg.MasterAddr, "MASTER_PORT="+strconv.Itoa(cfg.MasterPort))
	cmd.Dir = cfg.Dir
	cmd.SysProcAttr = groupAttr(0)
	outR, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	errR, err := cmd.StderrPipe()
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("launch: %w", err)
	}
	pgid := cmd.Process.Pid
	job := &mpiJob{out: &lockedWriter{w: cfg.Stdout}, errw: &lockedWriter{w: cfg.Stderr}}
	var wg sync.WaitGroup
	for _, r := range []io.Reader{outR, errR} {
		wg.Add(1)
		go func() { // ends at EOF, when mpirun and the ranks have closed the pipe
			defer wg.Done()
			sc := bufio.NewScanner(r)
			sc.Buffer(make([]byte, 64<<10), 1<<20)
			for sc.Scan() {
				job.line(sc.Text())
			}
		}()
	}
	stop := context.AfterFunc(ctx, func() { killGroup(pgid) })
	wg.Wait()
	werr := cmd.Wait()
	stop()
	syscall.Kill(-pgid, syscall.SIGKILL) // nothing of the job outlives it
	if ctx.Err() != nil {
		return fmt.Errorf("launch: job stopped: %w", ctx.Err())
	}
	if werr == nil {
		return nil
	}
	if f := job.failure(); f != nil {
		return f
	}
	return fmt.Errorf("launch: mpirun: %w", werr)
}

// mpiJob sorts the lines of a running mpirun: the ranks' tagged lines go
// to the job's writers with a "[rank r] " prefix, mpirun's own to stderr
// with "[mpirun] ", and it keeps what failure needs to name the rank that
// ended the job.
type mpiJob struct {
	out, errw *lockedWriter
	notes     lastLines

	mu      sync.Mutex
	own     strings.Builder // mpirun's own lines
	aborted int             // 1 + the first rank that wrote dist.AbortNotice; 0: none
}

// line handles one line of mpirun's stdout or stderr.
func (j *mpiJob) line(line string) {
	m := mpiTag.FindStringSubmatch(line)
	if m == nil {
		j.mu.Lock()
		j.own.WriteString(line + "\n")
		j.mu.Unlock()
		j.errw.line("[mpirun] " + line)
		return
	}
	rank, _ := strconv.Atoi(m[1])
	text := line[len(m[0]):]
	j.notes.note(rank, text)
	w := j.out
	if m[2] == "stderr" {
		w = j.errw
		if text == dist.AbortNotice(rank) {
			j.mu.Lock()
			if j.aborted == 0 {
				j.aborted = rank + 1
			}
			j.mu.Unlock()
		}
	}
	w.line(prefix(rank) + text)
}

// failure is the *RankFailure for a job mpirun ended with an error: the
// rank mpirun names, or, when its message is missing (Open MPI 4 loses it
// at times, printing only an ORTE_ERROR_LOG line), the rank that
// announced its MPI_Abort; nil when neither is known.
func (j *mpiJob) failure() *RankFailure {
	j.mu.Lock()
	f := mpiFailure(j.own.String())
	if f == nil && j.aborted > 0 {
		f = &RankFailure{Rank: j.aborted - 1, Status: "called MPI_Abort"}
	}
	j.mu.Unlock()
	if f != nil {
		f.Cause = j.notes.get(f.Rank)
	}
	return f
}

// What mpirun (Open MPI 4) prints when a rank ends the job.
var (
	mpiSignal = regexp.MustCompile(`process rank (\d+) with PID (\d+) on node \S+ exited on signal (\d+) \(([^)]*)\)`)
	mpiAbort  = regexp.MustCompile(`MPI_ABORT was invoked on rank (\d+)`)
	mpiExit   = regexp.MustCompile(`Process name: \[\[\d+,\d+\],(\d+)\]\s+Exit code:\s+(\d+)`)
	mpiExit2  = regexp.MustCompile(`process rank (\d+) with PID (\d+) on\s+node \S+ exiting improperly`)
)

// mpiFailure reads which rank ended the job from mpirun's messages.
func mpiFailure(text string) *RankFailure {
	atoi := func(s string) int { n, _ := strconv.Atoi(s); return n }
	if m := mpiSignal.FindStringSubmatch(text); m != nil {
		return &RankFailure{Rank: atoi(m[1]), PID: atoi(m[2]), Status: fmt.Sprintf("was killed by signal %s (%s)", m[3], strings.ToLower(m[4]))}
	}
	if m := mpiAbort.FindStringSubmatch(text); m != nil {
		return &RankFailure{Rank: atoi(m[1]), Status: "called MPI_Abort"}
	}
	if m := mpiExit.FindStringSubmatch(text); m != nil {
		return &RankFailure{Rank: atoi(m[1]), Status: "exited with status " + m[2]}
	}
	if m := mpiExit2.FindStringSubmatch(text); m != nil {
		return &RankFailure{Rank: atoi(m[1]), PID: atoi(m[2]), Status: "exited without MPI_Finalize"}
	}
	return nil
}

// killGroup stops a process group: SIGTERM, then SIGKILL after KillGrace.
func killGroup(pgid int) {
	syscall.Kill(-pgid, syscall.SIGTERM)
	time.AfterFunc(KillGrace, func() { syscall.Kill(-pgid, syscall.SIGKILL) })
}
