package stateful

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"go/token"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"time"

	"github.com/dlbd/dlbd/kernel/internal/cellpos"
	"github.com/dlbd/dlbd/kernel/internal/envlist"
	"github.com/dlbd/dlbd/kernel/internal/proc"
	"github.com/dlbd/dlbd/kernel/stateful/internal/compose"
	"github.com/dlbd/dlbd/kernel/stateful/internal/pkgindex"
)

// Options configures a [Session].
type Options struct {
	// Repo is the absolute root of the dlbd checkout, the module cells use.
	Repo string
	// Env is the environment of the go command and of the host (the
	// kernel's, from kernelspec.KernelEnv); nil means os.Environ().
	Env []string
	// WorkDir is the directory cells run in (the notebook's); "" means the
	// current directory.
	WorkDir string
	// Guard, when set, is told about every process group and directory the
	// session makes, to clean up if the kernel dies.
	Guard *proc.Guard
	// Log receives the session's own diagnostics; nil discards them.
	Log io.Writer
	// Trace logs the time each cell spent composing, building and running
	// (DLBD_TRACE=1 for `dlbd launch`).
	Trace bool
	// InterruptGrace is how long an interrupted cell may take to stop
	// before its host is killed; 0 means 5 s (GoNB's wait too).
	InterruptGrace time.Duration
}

// Output receives what a cell shows while it runs. Its methods may be
// called from several goroutines, but never at the same time.
type Output interface {
	// Stream is text the cell wrote on "stdout" or "stderr".
	Stream(name, text string)
	// Display is rich output (HTML, images, markdown).
	Display(d Display)
}

// Status is how a cell ended, as Jupyter's execute_reply says it.
type Status string

// The statuses of a [Result].
const (
	// StatusOK: the cell ran.
	StatusOK Status = "ok"
	// StatusError: it failed; the result's EName, EValue and Traceback say how.
	StatusError Status = "error"
)

// Result is how a cell ended.
type Result struct {
	// Status is StatusOK or StatusError.
	Status Status
	// EName, EValue and Traceback describe an error as Jupyter shows it.
	EName, EValue string
	Traceback     []string
}

// Session is one kernel's stateful executor.
type Session struct {
	o    Options
	dir  string
	fset *token.FileSet

	// ready is closed when the package index and the host program exist
	// (readyErr says whether they do).
	ready     chan struct{}
	readyErr  error
	index     *pkgindex.Index
	hostBin   string
	hostStamp string // fileStamp of hostBin when the running host started
	sources   string // sourceFingerprint when the host was built

	mu   sync.Mutex // guards the fields below and serialises Execute's host use
	hist *compose.History
	h    *hostProc // the running host; whoever sets it to nil (holding mu) kills it
	lost string    // what the next cell must be told about lost values
	used map[string]bool

	// life is the session's state that Close and Interrupt need while a
	// cell holds mu (a build can take seconds).
	life struct {
		sync.Mutex
		closed  bool
		running *running       // what Interrupt and Close stop
		cells   sync.WaitGroup // Execute calls in progress
	}
	closeOnce sync.Once
	closeErr  error
	// stopPrepare cancels prepare's build of the host.
	stopPrepare context.CancelFunc

	// fingerprint returns the state of the module's source
	// (sourceFingerprint; tests replace it).
	fingerprint func(repo string) string

	sink sinkBox
	env  map[string]string // %env settings, applied to new hosts and shells

	comp completer // Complete and Inspect (complete.go)

	cores *buildCores // the cores of the cells' builds; guarded by mu
}

// sinkBox holds the Output of the cell that is running (or ran last):
// host output arriving between cells goes there, as in ipykernel.
type sinkBox struct {
	mu  sync.Mutex
	out Output
}

func (b *sinkBox) set(o Output) { b.mu.Lock(); b.out = o; b.mu.Unlock() }

func (b *sinkBox) stream(name, text string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.out != nil {
		b.out.Stream(name, text)
	}
}

func (b *sinkBox) display(d Display) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.out != nil {
		b.out.Display(d)
	}
}

// New makes a session: its workspace in a new temporary directory, and, in
// the background, the package index and the host program (the first cell
// waits for them; building the host takes a few seconds).
func New(o Options) (*Session, error) { return newSession(o, sourceFingerprint) }

// newSession is New with the function that fingerprints the module's
// source (tests replace it before the session's preparation reads it).
func newSession(o Options, fingerprint func(repo string) string) (*Session, error) {
	if !filepath.IsAbs(o.Repo) {
		return nil, fmt.Errorf("stateful: repository path %q is not absolute", o.Repo)
	}
	if o.Env == nil {
		o.Env = os.Environ()
	}
	if o.InterruptGrace <= 0 {
		o.InterruptGrace = 5 * time.Second
	}
	if o.Log == nil {
		o.Log = io.Discard
	}
	if o.WorkDir == "" {
		wd, err := os.Getwd()
		if err != nil {
			return nil, fmt.Errorf("stateful: %w", err)
		}
		o.WorkDir = wd
	}
	dir, err := os.MkdirTemp("", "dlbd-session-")
	if err != nil {
		return nil, fmt.Errorf("stateful: make the session directory: %w", err)
	}
	o.Guard.Dir(dir)
	s := &Session{o: o, dir: dir, fset: token.NewFileSet(), ready: make(chan struct{}), used: map[string]bool{}, env: map[string]string{}, fingerprint: fingerprint, cores: newBuildCores(o.Env)}
	if err := s.writeWorkspace(); err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	ctx, cancel := context.WithCancel(context.Background())
	s.stopPrepare = cancel
	go s.prepare(ctx)
	return s, nil
}

// writeWorkspace writes the session's module and workspace: cell
// packages live in module dlbd.cells, which uses the checkout through
// go.work (as GoNB's cells do).
func (s *Session) writeWorkspace() error {
	files := map[string]string{
		"go.mod":  "module " + cellpos.Module + "\n\ngo 1.26.0\n",
		"go.work": fmt.Sprintf("go 1.26.0\n\nuse (\n\t.\n\t%s\n)\n", s.o.Repo),
	}
	for name, content := range files {
		if err := os.WriteFile(filepath.Join(s.dir, name), []byte(content), 0o644); err != nil {
			return fmt.Errorf("stateful: write the session's %s: %w", name, err)
		}
	}
	return nil
}

// prepare loads the package index and builds the host, then closes ready.
// Cancelling ctx (Close) stops the build.
func (s *Session) prepare(ctx context.Context) {
	defer close(s.ready)
	errc := make(chan error, 1)
	go func() {
		var err error
		s.index, err = pkgindex.Load(s.fset, s.dir, s.goEnv(), "github.com/dlbd/dlbd/...")
		errc <- err
	}()
	s.sources = s.fingerprint(s.o.Repo)
	bin, err := s.buildHost(ctx)
	s.hostStamp = fileStamp(bin)
	if ierr := <-errc; ierr != nil && err == nil {
		err = ierr
	}
	s.hostBin, s.readyErr = bin, err
	if err == nil {
		s.resetHistory()
	}
}

// Dir returns the session's directory (workspace, plugins, host).
func (s *Session) Dir() string { return s.dir }

// randomHex returns n random bytes in hexadecimal.
func randomHex(n int) string {
	b := make([]byte, n)
	rand.Read(b)
	return hex.EncodeToString(b)
}

// Available waits until the session is prepared and returns why it cannot
// run cells, or nil.
func (s *Session) Available() error {
	<-s.ready
	return s.readyErr
}

// Supported says why the stateful mode cannot work on this machine with
// the environment env, or returns nil: Go plugins need Linux or macOS, cgo
// and a C compiler.
func Supported(env []string) error {
	if runtime.GOOS != "linux" && runtime.GOOS != "darwin" {
		return fmt.Errorf("Go plugins, which stateful cells are built as, work on Linux and macOS only, not %s", runtime.GOOS)
	}
	e := envlist.Parse(env)
	if v, _ := e.Get("CGO_ENABLED"); v == "0" {
		return errors.New("CGO_ENABLED=0 is set, and Go plugins need cgo")
	}
	cc, _ := e.Get("CC")
	if cc == "" {
		cc = "gcc"
		if runtime.GOOS == "darwin" {
			cc = "clang"
		}
	}
	path, _ := e.Get("PATH")
	for _, dir := range filepath.SplitList(path) {
		if st, err := os.Stat(filepath.Join(dir, strings.Fields(cc)[0])); err == nil && !st.IsDir() {
			return nil
		}
	}
	return fmt.Errorf("no C compiler (%s) on PATH, and Go plugins need one to link (Debian/Ubuntu: sudo apt-get install gcc)", cc)
}
