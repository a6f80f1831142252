package spark

import (
	"context"
	"fmt"
	"path/filepath"
	"time"

	"github.com/dlbd/dlbd/bigdata/internal/service"
)

// Server is a local Spark Connect server started by Start (possibly by another process).
type Server struct {
	URL     string    // sc://127.0.0.1:port
	PID     int       // its process group
	Log     string    // the server's log (Spark's WARN lines: lost tasks, re-runs)
	Started time.Time // when it was started
	st      *service.State
}

// Start launches a local Spark Connect server and returns once its port accepts
// connections (about 12 s on 2 cores; the first query then warms the JVM for a few more).
// It fails at once, naming the fix, when Java or pyspark is missing or the port is busy.
func Start(ctx context.Context, cfg Config) (*Server, error) {
	cfg = cfg.withDefaults()
	java, _, err := service.Java(cfg.Java)
	if err != nil {
		return nil, fmt.Errorf("bigdata/spark: %w", err)
	}
	home, err := cfg.home()
	if err != nil {
		return nil, err
	}
	dir, err := cfg.dir()
	if err != nil {
		return nil, err
	}
	master := fmt.Sprintf("local[%d,%d]", cfg.Cores, cfg.TaskMaxFailures)
	st, err := startConnect(ctx, cfg, java, home, dir, master, nil)
	if err != nil {
		return nil, err
	}
	return server(st), nil
}

// startConnect starts the Spark Connect server of cfg (its driver) with the given master
// (local[…] or spark://…) and extra --conf settings, recorded under dir.
func startConnect(ctx context.Context, cfg Config, java, home, dir, master string, extra []string) (*service.State, error) {
	addr := fmt.Sprintf("127.0.0.1:%d", cfg.Port)
	scratch := filepath.Join(dir, fmt.Sprintf("work-%d", cfg.Port))
	conf := []string{
		"spark.connect.grpc.binding.address=127.0.0.1",
		fmt.Sprintf("spark.connect.grpc.binding.port=%d", cfg.Port),
		"spark.driver.host=127.0.0.1",
		"spark.driver.bindAddress=127.0.0.1",
		"spark.ui.enabled=false",
		fmt.Sprintf("spark.sql.shuffle.partitions=%d", cfg.ShufflePartitions),
		"spark.local.dir=" + filepath.Join(scratch, "tmp"),
		"spark.sql.warehouse.dir=" + filepath.Join(scratch, "warehouse"),
	}
	conf = append(conf, extra...) // later settings win (spark-submit keeps the last --conf)
	argv := []string{filepath.Join(home, "bin", "spark-submit"),
		"--class", "org.apache.spark.sql.connect.service.SparkConnectServer",
		"--name", "dlbd-spark-connect",
		"--master", master,
		"--driver-memory", cfg.DriverMemory}
	for _, c := range conf {
		argv = append(argv, "--conf", c)
	}
	argv = append(argv, "spark-internal")
	st, err := service.Start(ctx, service.Spec{
		Name: "Spark Connect server", Addr: addr, Argv: argv,
		Env: append(sparkEnv(home, java), "SPARK_LOG_DIR="+scratch),
		Dir: scratch, Log: filepath.Join(dir, fmt.Sprintf("server-%d.log", cfg.Port)),
		StateFile: cfg.stateFile(dir), Watch: cfg.Watch, Timeout: cfg.StartTimeout,
		Hint: "Check Java (java -version: 17 or 21) and memory (Config.DriverMemory); `make spark-stop` stops a server left running.",
	})
	if err != nil {
		return nil, fmt.Errorf("bigdata/spark: %w", err)
	}
	return st, nil
}

func server(st *service.State) *Server {
	return &Server{URL: "sc://" + st.Addr, PID: st.PID, Log: st.Log, Started: st.Started, st: st}
}

// sparkEnv is the environment of every Spark process started here.
func sparkEnv(home, java string) []string {
	return []string{"SPARK_HOME=" + home, "SPARK_LOCAL_IP=127.0.0.1", "JAVA_HOME=" + filepath.Dir(filepath.Dir(resolve(java)))}
}

// resolve follows symbolic links (Debian's /usr/bin/java → /usr/lib/jvm/…/bin/java).
func resolve(p string) string {
	if r, err := filepath.EvalSymlinks(p); err == nil {
		return r
	}
	return p
}

// Running returns the local server recorded under cfg.Dir for cfg.Port when it is alive
// and listening.
func Running(cfg Config) (*Server, bool) {
	cfg = cfg.withDefaults()
	dir, err := cfg.dir()
	if err != nil {
		return nil, false
	}
	st := service.Load(cfg.stateFile(dir))
	if st == nil {
		return nil, false
	}
	return server(st), true
}

// Stop stops the server (SIGTERM, then SIGKILL after 30 s) and removes its state file.
func (s *Server) Stop() error {
	if err := s.st.Stop(30 * time.Second); err != nil {
		return fmt.Errorf("bigdata/spark: %w", err)
	}
	return nil
}

// Stop stops the local server of cfg when one is running; no server is not an error.
func Stop(cfg Config) error {
	if s, ok := Running(cfg); ok {
		return s.Stop()
	}
	return nil
}
