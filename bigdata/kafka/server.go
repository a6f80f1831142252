package kafka

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/dlbd/dlbd/bigdata/internal/service"
	"github.com/dlbd/dlbd/internal/checkout"
)

// DefaultPort is the broker's client port here (19092, to stay clear of a system Kafka on
// 9092); the controller listens on the next port.
const DefaultPort = 19092

// Config configures the local broker; the zero value is sized for a 2-core / 8 GB laptop.
type Config struct {
	Port         int           // client port; default 19092 (controller: Port+1)
	Heap         string        // JVM heap (-Xmx); default "256m"
	Libs         string        // directory of the Kafka jars; default <repo>/.kafka/libs
	Java         string        // java command; default $JAVA_HOME/bin/java, else java on PATH
	Dir          string        // log directory, state file and broker log; default <repo>/build/kafka
	StartTimeout time.Duration // default 90 s
	Watch        int           // stop the broker when this process exits; default 0 (never)
}

// Server is a running local broker.
type Server struct {
	Addr string // 127.0.0.1:port for clients
	PID  int
	Log  string
	st   *service.State
}

func (c Config) resolve() (Config, error) {
	if c.Port == 0 {
		c.Port = DefaultPort
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

func (c Config) stateFile() string {
	return filepath.Join(c.Dir, fmt.Sprintf("broker-%d.json", c.Port))
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

// Start formats a fresh log directory and starts a broker in KRaft mode, returning once
// its client port accepts connections.
func Start(ctx context.Context, cfg Config) (*Server, error) {
	cfg, err := cfg.resolve()
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
	for _, p := range []int{cfg.Port, cfg.Port + 1} {
		if err := service.PortFree(fmt.Sprintf("127.0.0.1:%d", p)); err != nil {
			return nil, fmt.Errorf("bigdata/kafka: cannot listen on 127.0.0.1:%d: %w (or set Config.Port)", p, err)
		}
	}
	work := filepath.Join(cfg.Dir, fmt.Sprintf("broker-%d", cfg.Port))
	if err := os.RemoveAll(work); err != nil {
		return nil, fmt.Errorf("bigdata/kafka: %w", err)
	}
	if err := os.MkdirAll(work, 0o755); err != nil {
		return nil, fmt.Errorf("bigdata/kafka: %w", err)
	}
	props := filepath.Join(work, "server.properties")
	conf := strings.Join([]string{
		"process.roles=broker,controller",
		"node.id=1",
		fmt.Sprintf("controller.quorum.voters=1@127.0.0.1:%d", cfg.Port+1),
		fmt.Sprintf("listeners=PLAINTEXT://127.0.0.1:%d,CONTROLLER://127.0.0.1:%d", cfg.Port, cfg.Port+1),
		fmt.Sprintf("advertised.listeners=PLAINTEXT://127.0.0.1:%d", cfg.Port),
		"controller.listener.names=CONTROLLER",
		"listener.security.protocol.map=CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT",
		"log.dirs=" + filepath.Join(work, "data"),
		"num.partitions=1",
		"offsets.topic.replication.factor=1",
		"transaction.state.log.replication.factor=1",
		"transaction.state.log.min.isr=1",
		"group.initial.rebalance.delay.ms=0",
	}, "\n") + "\n"
	if err := os.WriteFile(props, []byte(conf), 0o644); err != nil {
		return nil, fmt.Errorf("bigdata/kafka: %w", err)
	}
	classpath := filepath.Join(cfg.Libs, "*")
	id, err := newClusterID()
	if err != nil {
		return nil, fmt.Errorf("bigdata/kafka: %w", err)
	}
	fctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	format := exec.CommandContext(fctx, java, "-Xmx128m", "-cp", classpath, "kafka.tools.StorageTool",
		"format", "-t", id, "-c", props)
	if out, err := format.CombinedOutput(); err != nil {
		return nil, fmt.Errorf("bigdata/kafka: format the log directory: %v\n%s", err, out)
	}
	st, err := service.Start(ctx, service.Spec{
		Name: "Kafka broker", Addr: fmt.Sprintf("127.0.0.1:%d", cfg.Port),
		Argv: []string{java, "-Xmx" + cfg.Heap, "-Xms" + cfg.Heap, "-XX:+UseSerialGC", "-cp", classpath, "kafka.Kafka", props},
		Dir:  work, Log: filepath.Join(cfg.Dir, fmt.Sprintf("broker-%d.log", cfg.Port)),
		StateFile: cfg.stateFile(), Watch: cfg.Watch, Timeout: cfg.StartTimeout,
		Hint: "Check Java (java -version: 17 or newer) and that scripts/setup.sh installed .kafka/libs; `make kafka-stop` stops a broker left running.",
	})
	if err != nil {
		return nil, fmt.Errorf("bigdata/kafka: %w", err)
	}
	return &Server{Addr: st.Addr, PID: st.PID, Log: st.Log, st: st}, nil
}

// Running returns the local broker of cfg when it is alive and listening.
func Running(cfg Config) (*Server, bool) {
	cfg, err := cfg.resolve()
	if err != nil {
		return nil, false
	}
	st := service.Load(cfg.stateFile())
	if st == nil {
		return nil, false
	}
	return &Server{Addr: st.Addr, PID: st.PID, Log: st.Log, st: st}, true
}

// Stop stops the broker (SIGTERM, then SIGKILL after 30 s).
func (s *Server) Stop() error {
	if err := s.st.Stop(30 * time.Second); err != nil {
		return fmt.Errorf("bigdata/kafka: %w", err)
	}
	return nil
}

// Stop stops the local broker of cfg when one is running.
func Stop(cfg Config) error {
	if s, ok := Running(cfg); ok {
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
