package kafka

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/dlbd/dlbd/bigdata/internal/service"
	"github.com/dlbd/dlbd/internal/checkout"
)

// DefaultPort is the broker's client port here (19092, to stay clear of a system Kafka on
// 9092); the controller listens on the next port.
const DefaultPort = 19092

// Config configures the local broker, or a cluster of brokers; the zero value is one broker
// sized for a 2-core / 8 GB laptop.
type Config struct {
	Port int // client port of broker 0; default 19092 (controller: Port+1)
	// Brokers is the number of brokers, each a JVM that is both broker and KRaft controller
	// (the quorum is all of them); default 1. Broker i listens on Port+2i (controller
	// Port+2i+1). Topics get replication factor min(Brokers, 3) and min.insync.replicas
	// min(Brokers, 3) − 1 (at least 1): with 3, acks=all survives the loss of any one.
	Brokers      int
	Heap         string        // JVM heap (-Xmx); default "256m"
	Libs         string        // directory of the Kafka jars; default <repo>/.kafka/libs
	Java         string        // java command; default $JAVA_HOME/bin/java, else java on PATH
	Dir          string        // log directory, state file and broker log; default <repo>/build/kafka
	StartTimeout time.Duration // default 90 s
	Watch        int           // stop the broker when this process exits; default 0 (never)
}

// Server is a running local broker or cluster of brokers.
type Server struct {
	Addr  string  // 127.0.0.1:port for clients; a cluster's bootstrap list, comma-separated
	PID   int     // broker 0's process group
	Log   string  // broker 0's log
	Nodes []*Node // the brokers, in order (nil where one is no longer running)
}

// Node is one broker of a Server.
type Node struct {
	ID   int32  // KRaft node.id: index + 1
	Addr string // 127.0.0.1:port for clients
	PID  int    // its process group
	Log  string
	st   *service.State
}

// Kill kills the broker with SIGKILL (kill -9), as when its machine is lost, waits until its
// port is closed and removes its state file.
func (n *Node) Kill() error {
	if err := syscall.Kill(-n.PID, syscall.SIGKILL); err != nil {
		return fmt.Errorf("bigdata/kafka: kill broker %d (process group %d): %w", n.ID, n.PID, err)
	}
	if err := n.st.Stop(10 * time.Second); err != nil {
		return fmt.Errorf("bigdata/kafka: broker %d after SIGKILL: %w", n.ID, err)
	}
	return nil
}

// Node returns the running broker whose node.id is id.
func (s *Server) Node(id int32) (*Node, error) {
	for _, n := range s.Nodes {
		if n != nil && n.ID == id {
			return n, nil
		}
	}
	return nil, fmt.Errorf("bigdata/kafka: no running broker has node.id %d (the cluster at %s has ids 1..%d)", id, s.Addr, len(s.Nodes))
}

func (c Config) resolve() (Config, error) {
	if c.Port == 0 {
		c.Port = DefaultPort
	}
	if c.Brokers == 0 {
		c.Brokers = 1
	}
	if c.Brokers < 1 {
		return c, fmt.Errorf("bigdata/kafka: Config.Brokers = %d: a cluster needs at least 1 broker", c.Brokers)
	}
	if c.Heap == "" {
		c.Heap = "256m"
	}
	if c.StartTimeout == 0 {
		c.StartTimeout = 90 * time.Second
	}
	if c.Libs == "" || c.Dir == "" {
		r, err := checkout.Root()
		if err != nil {
			return c, fmt.Errorf("bigdata/kafka: %w (or set Config.Libs and Config.Dir)", err)
		}
		if c.Libs == "" {
			c.Libs = filepath.Join(r, ".kafka", "libs")
		}
		if c.Dir == "" {
			c.Dir = filepath.Join(r, "build", "kafka")
		}
	}
	return c, nil
}

func (c Config) stateFile(port int) string {
	return filepath.Join(c.Dir, fmt.Sprintf("broker-%d.json", port))
}

// replication returns the replication factor and min.insync.replicas of the cluster's topics.
func (c Config) replication() (rf, minISR int) {
	rf = min(c.Brokers, 3)
	return rf, max(rf-1, 1)
}

// Installed reports whether the Kafka jars are in cfg.Libs, and if not, why.
func Installed(cfg Config) error {
	cfg, err := cfg.resolve()
	if err != nil {
		return err
	}
	if jars, _ := filepath.Glob(filepath.Join(cfg.Libs, "kafka_2.13-*.jar")); len(jars) == 0 {
		return fmt.Errorf("bigdata/kafka: Kafka is not installed in %s: run scripts/setup.sh (it copies the broker's jars from Maven Central with mvn)", cfg.Libs)
	}
	return nil
}

// Start formats fresh log directories and starts the broker (or cfg.Brokers brokers, all
// at once: a KRaft quorum needs a majority up before any broker serves) in KRaft mode,
// returning once every client port accepts connections. On failure the brokers already
// started are stopped.
func Start(ctx context.Context, cfg Config) (_ *Server, err error) {
	cfg, err = cfg.resolve()
	if err != nil {
		return nil, err
	}
	java, _, err := service.Java(cfg.Java)
	if err != nil {
		return nil, fmt.Errorf("bigdata/kafka: %w", err)
	}
	if err := Installed(cfg); err != nil {
		return nil, err
	}
	for i := range 2 * cfg.Brokers {
		if err := service.PortFree(fmt.Sprintf("127.0.0.1:%d", cfg.Port+i)); err != nil {
			return nil, fmt.Errorf("bigdata/kafka: cannot listen on 127.0.0.1:%d: %w (or set Config.Port)", cfg.Port+i, err)
		}
	}
	id, err := newClusterID()
	if err != nil {
		return nil, fmt.Errorf("bigdata/kafka: %w", err)
	}
	nodes, err := service.StartAll(cfg.Brokers, func(i int) (*Node, error) {
		return startBroker(ctx, cfg, java, id, i)
	})
	srv := &Server{Nodes: nodes}
	if err != nil {
		_ = srv.Stop()
		return nil, fmt.Errorf("bigdata/kafka: %w", err)
	}
	srv.fill()
	return srv, nil
}

// startBroker formats broker i's log directory with the cluster id and starts it.
func startBroker(ctx context.Context, cfg Config, java, clusterID string, i int) (*Node, error) {
	port := cfg.Port + 2*i
	work := filepath.Join(cfg.Dir, fmt.Sprintf("broker-%d", port))
	if err := os.RemoveAll(work); err != nil {
		return nil, err
	}
	if err := os.MkdirAll(work, 0o755); err != nil {
		return nil, err
	}
	var voters []string
	for j := range cfg.Brokers {
		voters = append(voters, fmt.Sprintf("%d@127.0.0.1:%d", j+1, cfg.Port+2*j+1))
	}
	rf, minISR := cfg.replication()
	props := filepath.Join(work, "server.properties")
	conf := strings.Join([]string{
		"process.roles=broker,controller",
		fmt.Sprintf("node.id=%d", i+1),
		"controller.quorum.voters=" + strings.Join(voters, ","),
		fmt.Sprintf("listeners=PLAINTEXT://127.0.0.1:%d,CONTROLLER://127.0.0.1:%d", port, port+1),
		fmt.Sprintf("advertised.listeners=PLAINTEXT://127.0.0.1:%d", port),
		"controller.listener.names=CONTROLLER",
		"listener.security.protocol.map=CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT",
		"log.dirs=" + filepath.Join(work, "data"),
		"num.partitions=1",
		fmt.Sprintf("default.replication.factor=%d", rf),
		fmt.Sprintf("min.insync.replicas=%d", minISR),
		"unclean.leader.election.enable=false",
		fmt.Sprintf("offsets.topic.replication.factor=%d", rf),
		fmt.Sprintf("transaction.state.log.replication.factor=%d", rf),
		fmt.Sprintf("transaction.state.log.min.isr=%d", minISR),
		"group.initial.rebalance.delay.ms=0",
	}, "\n") + "\n"
	if err := os.WriteFile(props, []byte(conf), 0o644); err != nil {
		return nil, err
	}
	classpath := filepath.Join(cfg.Libs, "*")
	fctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	format := exec.CommandContext(fctx, java, "-Xmx128m", "-cp", classpath, "kafka.tools.StorageTool",
		"format", "-t", clusterID, "-c", props)
	if out, err := format.CombinedOutput(); err != nil {
		return nil, fmt.Errorf("format the log directory of broker %d: %v\n%s", i+1, err, out)
	}
	st, err := service.Start(ctx, service.Spec{
		Name: fmt.Sprintf("Kafka broker %d", i+1), Addr: fmt.Sprintf("127.0.0.1:%d", port),
		Argv: []string{java, "-Xmx" + cfg.Heap, "-Xms" + cfg.Heap, "-XX:+UseSerialGC", "-cp", classpath, "kafka.Kafka", props},
		Dir:  work, Log: filepath.Join(cfg.Dir, fmt.Sprintf("broker-%d.log", port)),
		StateFile: cfg.stateFile(port), Watch: cfg.Watch, Timeout: cfg.StartTimeout,
		Hint: "Check Java (java -version: 17 or newer) and that scripts/setup.sh installed .kafka/libs; `make kafka-stop` stops a broker left running.",
	})
	if err != nil {
		return nil, err
	}
	return &Node{ID: int32(i + 1), Addr: st.Addr, PID: st.PID, Log: st.Log, st: st}, nil
}

// fill sets Addr, PID and Log from the running nodes.
func (s *Server) fill() {
	var addrs []string
	s.Addr, s.PID, s.Log = "", 0, ""
	for _, n := range s.Nodes {
		if n == nil {
			continue
		}
		addrs = append(addrs, n.Addr)
		if s.PID == 0 {
			s.PID, s.Log = n.PID, n.Log
		}
	}
	s.Addr = strings.Join(addrs, ",")
}

// Running returns the local broker or cluster of cfg when its brokers are alive and
// listening. With cfg.Brokers unset it finds a cluster started with any number of brokers
// at cfg.Port (the state files under cfg.Dir); with it set, all of them must run.
func Running(cfg Config) (*Server, bool) {
	explicit := cfg.Brokers
	s, ok := recorded(cfg)
	if !ok || (explicit > 0 && len(s.Nodes) != explicit) {
		return nil, false
	}
	for _, n := range s.Nodes {
		if n == nil {
			return nil, false
		}
	}
	return s, true
}

// recorded loads the brokers of cfg that still run (nil for those gone).
func recorded(cfg Config) (*Server, bool) {
	cfg, err := cfg.resolve()
	if err != nil {
		return nil, false
	}
	// The brokers are those of the state files at Port+2i (a dead broker's file is removed
	// when it is found dead, so the highest index is read from the files, not counted).
	last := cfg.Brokers - 1
	files, _ := filepath.Glob(filepath.Join(cfg.Dir, "broker-*.json"))
	for _, f := range files {
		var port int
		if _, err := fmt.Sscanf(filepath.Base(f), "broker-%d.json", &port); err == nil && port >= cfg.Port && (port-cfg.Port)%2 == 0 {
			last = max(last, (port-cfg.Port)/2)
		}
	}
	s := &Server{}
	found := false
	for i := 0; i <= last; i++ {
		var n *Node
		if st := service.Load(cfg.stateFile(cfg.Port + 2*i)); st != nil {
			n = &Node{ID: int32(i + 1), Addr: st.Addr, PID: st.PID, Log: st.Log, st: st}
			found = true
		}
		s.Nodes = append(s.Nodes, n)
	}
	for len(s.Nodes) > 0 && s.Nodes[len(s.Nodes)-1] == nil {
		s.Nodes = s.Nodes[:len(s.Nodes)-1]
	}
	s.fill()
	return s, found
}

// Stop stops the brokers (SIGTERM, then SIGKILL after 30 s); those already gone are skipped.
// They stop together: one by one, the last of a quorum that lost a member would wait for a
// controller majority that is gone.
func (s *Server) Stop() error {
	errs := make([]error, len(s.Nodes))
	var wg sync.WaitGroup
	for i, n := range s.Nodes {
		if n != nil {
			wg.Add(1)
			go func() { defer wg.Done(); errs[i] = n.st.Stop(30 * time.Second) }()
		}
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("bigdata/kafka: %w", err)
	}
	return nil
}

// Stop stops the local broker or cluster of cfg (every broker still running) when there is one.
func Stop(cfg Config) error {
	if s, ok := recorded(cfg); ok {
		return s.Stop()
	}
	return nil
}

// Ensure returns the running local broker of cfg, or starts one; inside a notebook (with
// cfg.Watch unset) a broker it starts stops when the kernel exits.
func Ensure(ctx context.Context, cfg Config) (*Server, error) {
	if s, ok := Running(cfg); ok {
		return s, nil
	}
	if cfg.Watch == 0 && os.Getenv("GONB_TMP_DIR") != "" {
		cfg.Watch = os.Getppid()
	}
	return Start(ctx, cfg)
}

// newClusterID returns a random KRaft cluster id: 16 random bytes in unpadded URL-safe base64,
// as kafka-storage random-uuid prints them. Like Kafka's own Uuid.randomUuid it draws again
// when the text starts with '-': the storage tool's argument parser would read such an id as
// an option ("argument --cluster-id/-t: expected one argument"), one start in 64.
func newClusterID() (string, error) {
	raw := make([]byte, 16)
	for {
		if _, err := rand.Read(raw); err != nil {
			return "", fmt.Errorf("draw a cluster id: %w", err)
		}
		if id := base64.RawURLEncoding.EncodeToString(raw); id[0] != '-' {
			return id, nil
		}
	}
}
