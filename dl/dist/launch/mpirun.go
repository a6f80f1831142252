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
	margs := []string{"-np", strconv.Itoa(cfg.NProcPerNode), "--oversubscribe", "--tag-output", "-x", dist.BackendEnv}
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
	out, errw := &lockedWriter{w: cfg.Stdout}, &lockedWriter{w: cfg.Stderr}
	var notes lastLines
	var own strings.Builder // mpirun's own lines, for the failure
	var ownMu sync.Mutex
	var wg sync.WaitGroup
	for _, r := range []io.Reader{outR, errR} {
		wg.Add(1)
		go func() { // ends at EOF, when mpirun and the ranks have closed the pipe
			defer wg.Done()
			sc := bufio.NewScanner(r)
			sc.Buffer(make([]byte, 64<<10), 1<<20)
			for sc.Scan() {
				line := sc.Text()
				if m := mpiTag.FindStringSubmatch(line); m != nil {
					rank, _ := strconv.Atoi(m[1])
					text := line[len(m[0]):]
					notes.note(rank, text)
					w := out
					if m[2] == "stderr" {
						w = errw
					}
					w.line(prefix(rank) + text)
					continue
				}
				ownMu.Lock()
				own.WriteString(line + "\n")
				ownMu.Unlock()
				errw.line("[mpirun] " + line)
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
	f := mpiFailure(own.String())
	if f == nil {
		return fmt.Errorf("launch: mpirun: %w", werr)
	}
	f.Cause = notes.get(f.Rank)
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
