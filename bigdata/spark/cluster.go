package spark

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"path/filepath"
	"strconv"
	"syscall"
	"time"

	"github.com/dlbd/dlbd/bigdata/internal/service"
)

// ClusterConfig configures a Spark standalone cluster on this machine: a Master, Workers
// (each its own JVM with its own cores and memory, as the machines of a real cluster) and a
// Spark Connect server whose master is that cluster. The zero value is sized for a 2-core
// machine: 2 workers of 1 core each.
type ClusterConfig struct {
	Workers        int    // number of Worker JVMs; default 2
	WorkerCores    int    // cores each worker offers (--cores); default 1
	WorkerMemory   string // memory each worker offers (--memory); default "1g"
	ExecutorMemory string // heap of each executor (spark.executor.memory); default "512m"
	DaemonMemory   string // heap of the Master and Worker JVMs (SPARK_DAEMON_MEMORY); default "256m"
	MasterPort     int    // the Master's port (spark://127.0.0.1:MasterPort); default 17077
	MasterUIPort   int    // the Master's web UI and JSON (/json/); default 18080; worker i's is +1+i
	DriverUIPort   int    // the driver's web UI and REST API (/api/v1/); default 14040
	// Connect configures the Spark Connect server (the driver); its Port defaults to 15003,
	// so a local server on 15002 can run beside the cluster. Cores is unused.
	Connect Config
	Dir     string        // state files, logs and the workers' scratch; default <repo>/build/spark-cluster
	Timeout time.Duration // how long to wait for every worker to register; default 2 minutes
	Watch   int           // stop the cluster when this process exits; default 0 (never)
}

// DefaultClusterPort is the Spark Connect port of a cluster started by StartCluster.
const DefaultClusterPort = 15003

func (c ClusterConfig) withDefaults() (ClusterConfig, error) {
	if c.Workers == 0 {
		c.Workers = 2
	}
	if c.Workers < 1 {
		return c, fmt.Errorf("bigdata/spark: a cluster needs at least 1 worker, got Workers=%d", c.Workers)
	}
	if c.WorkerCores == 0 {
		c.WorkerCores = 1
	}
	if c.WorkerMemory == "" {
		c.WorkerMemory = "1g"
	}
	if c.ExecutorMemory == "" {
		c.ExecutorMemory = "512m"
	}
	if c.DaemonMemory == "" {
		c.DaemonMemory = "256m"
	}
	if c.MasterPort == 0 {
		c.MasterPort = 17077
	}
	if c.MasterUIPort == 0 {
		c.MasterUIPort = 18080
	}
	if c.DriverUIPort == 0 {
		c.DriverUIPort = 14040
	}
	if c.Timeout == 0 {
		c.Timeout = 2 * time.Minute
	}
	if c.Connect.Port == 0 {
		c.Connect.Port = DefaultClusterPort
	}
	if c.Connect.Watch == 0 {
		c.Connect.Watch = c.Watch
	}
	if c.Connect.ShufflePartitions == 0 {
		c.Connect.ShufflePartitions = 2 * c.Workers * c.WorkerCores
	}
	c.Connect.Cores = c.Workers * c.WorkerCores
	c.Connect = c.Connect.withDefaults()
	if c.Dir == "" {
		d, err := Config{}.dir()
		if err != nil {
			return c, err
		}
		c.Dir = filepath.Join(filepath.Dir(d), "spark-cluster")
	}
	c.Connect.Dir = c.Dir
	return c, nil
}

// Cluster is a running standalone cluster started by StartCluster (possibly by another
// process: RunningCluster finds it through its state files).
type Cluster struct {
	URL      string    // sc://127.0.0.1:port of its Spark Connect server
	Master   string    // spark://127.0.0.1:port
	MasterUI string    // http://127.0.0.1:port of the Master (its /json/ lists the workers)
	DriverUI string    // http://127.0.0.1:port of the driver (its /api/v1/ lists executors, stages)
	Workers  []*Worker // in start order
	Log      string    // the Spark Connect server's log (lost executors, resubmitted stages)

	master, connect *service.State
}

// Worker is one Worker JVM of a cluster; the executors it launches are its children.
type Worker struct {
	Index int    // 0, 1, …
	Addr  string // 127.0.0.1:port of its RPC endpoint
	UI    string // http://127.0.0.1:port of its web UI (its /json/ lists its executors)
	PID   int    // its process group (the worker and its executors)
	Log   string
	st    *service.State
}

// StartCluster starts a Master, cfg.Workers Workers and a Spark Connect server on the
// cluster, and returns once every worker has registered with the master. Each process
// is recorded under cfg.Dir, so `bdctl spark cluster stop` stops a cluster another process
// started. On any failure the processes already started are stopped.
func StartCluster(ctx context.Context, cfg ClusterConfig) (_ *Cluster, err error) {
	cfg, err = cfg.withDefaults()
	if err != nil {
		return nil, err
	}
	java, _, err := service.Java(cfg.Connect.Java)
	if err != nil {
		return nil, fmt.Errorf("bigdata/spark: %w", err)
	}
	home, err := cfg.Connect.home()
	if err != nil {
		return nil, err
	}
	c := cfg.cluster()
	defer func() {
		if err != nil {
			_ = c.Stop()
		}
	}()
	env := append(sparkEnv(home, java), "SPARK_DAEMON_MEMORY="+cfg.DaemonMemory, "SPARK_LOG_DIR="+cfg.Dir)
	class := filepath.Join(home, "bin", "spark-class")
	hint := "Check Java (java -version: 17 or 21) and memory; `bdctl spark cluster stop` stops a cluster left running."
	c.master, err = service.Start(ctx, service.Spec{
		Name: "Spark master", Addr: fmt.Sprintf("127.0.0.1:%d", cfg.MasterPort),
		Argv: []string{class, "org.apache.spark.deploy.master.Master", "--host", "127.0.0.1",
			"--port", strconv.Itoa(cfg.MasterPort), "--webui-port", strconv.Itoa(cfg.MasterUIPort)},
		Env: env, Dir: cfg.Dir, Log: filepath.Join(cfg.Dir, "master.log"),
		StateFile: cfg.masterStateFile(), Watch: cfg.Watch, Hint: hint,
	})
	if err != nil {
		return nil, fmt.Errorf("bigdata/spark: %w", err)
	}
	// The workers start together: each JVM takes seconds to come up.
	c.Workers, err = service.StartAll(cfg.Workers, func(i int) (*Worker, error) {
		return startWorker(ctx, cfg, i, class, env, c.Master, hint)
	})
	if err != nil {
		return nil, fmt.Errorf("bigdata/spark: %w", err)
	}
	if err = c.waitWorkers(ctx, cfg.Workers, cfg.Timeout); err != nil {
		return nil, err
	}
	conf := []string{
		"spark.ui.enabled=true",
		fmt.Sprintf("spark.ui.port=%d", cfg.DriverUIPort),
		"spark.port.maxRetries=0", // the REST API is found at DriverUIPort or nowhere
		"spark.executor.memory=" + cfg.ExecutorMemory,
		fmt.Sprintf("spark.executor.cores=%d", cfg.WorkerCores),
		fmt.Sprintf("spark.cores.max=%d", cfg.Workers*cfg.WorkerCores),
		fmt.Sprintf("spark.task.maxFailures=%d", max(cfg.Connect.TaskMaxFailures, 4)),
	}
	if err = service.PortFree(fmt.Sprintf("127.0.0.1:%d", cfg.DriverUIPort)); err != nil {
		return nil, fmt.Errorf("bigdata/spark: the driver's web UI cannot listen on 127.0.0.1:%d: %w (or set ClusterConfig.DriverUIPort)", cfg.DriverUIPort, err)
	}
	st, err := startConnect(ctx, cfg.Connect, java, home, cfg.Dir, c.Master, conf)
	if err != nil {
		return nil, err
	}
	c.setConnect(st)
	return c, nil
}

// cluster returns the cluster of cfg with its addresses and no processes yet.
func (c ClusterConfig) cluster() *Cluster {
	return &Cluster{
		Master:   fmt.Sprintf("spark://127.0.0.1:%d", c.MasterPort),
		MasterUI: fmt.Sprintf("http://127.0.0.1:%d", c.MasterUIPort),
		DriverUI: fmt.Sprintf("http://127.0.0.1:%d", c.DriverUIPort),
	}
}

func (c ClusterConfig) masterStateFile() string { return filepath.Join(c.Dir, "master.json") }

func (c ClusterConfig) workerStateFile(i int) string {
	return filepath.Join(c.Dir, fmt.Sprintf("worker-%d.json", i))
}

// workerUIPort is worker i's web UI port: the ones after the Master's.
func (c ClusterConfig) workerUIPort(i int) int { return c.MasterUIPort + 1 + i }

// setConnect records the Spark Connect server (the driver) of the cluster.
func (c *Cluster) setConnect(st *service.State) {
	c.connect, c.URL, c.Log = st, "sc://"+st.Addr, st.Log
}

func startWorker(ctx context.Context, cfg ClusterConfig, i int, class string, env []string, master, hint string) (*Worker, error) {
	port, ui := cfg.MasterPort+1+i, cfg.workerUIPort(i)
	work := filepath.Join(cfg.Dir, fmt.Sprintf("worker-%d", i))
	st, err := service.Start(ctx, service.Spec{
		Name: fmt.Sprintf("Spark worker %d", i), Addr: fmt.Sprintf("127.0.0.1:%d", port),
		Argv: []string{class, "org.apache.spark.deploy.worker.Worker", "--host", "127.0.0.1",
			"--port", strconv.Itoa(port), "--webui-port", strconv.Itoa(ui),
			"--cores", strconv.Itoa(cfg.WorkerCores), "--memory", cfg.WorkerMemory,
			"--work-dir", work, master},
		Env: env, Dir: work, Log: filepath.Join(cfg.Dir, fmt.Sprintf("worker-%d.log", i)),
		StateFile: cfg.workerStateFile(i), Watch: cfg.Watch, Hint: hint,
	})
	if err != nil {
		return nil, err
	}
	return workerOf(i, ui, st), nil
}

func workerOf(i, ui int, st *service.State) *Worker {
	return &Worker{Index: i, Addr: st.Addr, UI: fmt.Sprintf("http://127.0.0.1:%d", ui), PID: st.PID, Log: st.Log, st: st}
}

// MasterStatus is what the Master's /json/ endpoint reports.
type MasterStatus struct {
	URL          string `json:"url"`
	AliveWorkers int    `json:"aliveworkers"`
	Cores        int    `json:"cores"`
	CoresUsed    int    `json:"coresused"`
	Workers      []struct {
		ID    string `json:"id"`
		Host  string `json:"host"`
		Port  int    `json:"port"`
		Cores int    `json:"cores"`
		State string `json:"state"` // ALIVE, DEAD
	} `json:"workers"`
}

// Status asks the Master for its workers.
func (c *Cluster) Status(ctx context.Context) (*MasterStatus, error) {
	var st MasterStatus
	if err := getJSON(ctx, c.MasterUI+"/json/", &st); err != nil {
		return nil, err
	}
	return &st, nil
}

func (c *Cluster) waitWorkers(ctx context.Context, n int, timeout time.Duration) error {
	deadline := time.Now().Add(timeout)
	for {
		st, err := c.Status(ctx)
		if err == nil && st.AliveWorkers >= n {
			return nil
		}
		if time.Now().After(deadline) || ctx.Err() != nil {
			alive := 0
			if st != nil {
				alive = st.AliveWorkers
			}
			return fmt.Errorf("bigdata/spark: %d of %d workers registered with the master at %s within %v (last error: %v); see the logs in %s",
				alive, n, c.Master, timeout, err, filepath.Dir(c.master.Log))
		}
		time.Sleep(250 * time.Millisecond)
	}
}

// Server returns the cluster's Spark Connect server (its driver): its log shows the lost
// executors and tasks (Server.TaskFailures).
func (c *Cluster) Server() *Server { return server(c.connect) }

// KillWorker kills worker i and the executors it launched with SIGKILL, as when a machine
// of the cluster is lost: the driver notices the lost executor and runs its tasks again on
// the others.
func (c *Cluster) KillWorker(i int) error {
	if i < 0 || i >= len(c.Workers) || c.Workers[i] == nil {
		return fmt.Errorf("bigdata/spark: KillWorker(%d): the cluster has workers 0..%d", i, len(c.Workers)-1)
	}
	if err := syscall.Kill(-c.Workers[i].PID, syscall.SIGKILL); err != nil {
		return fmt.Errorf("bigdata/spark: kill worker %d (process group %d): %w", i, c.Workers[i].PID, err)
	}
	return nil
}

// Stop stops the Spark Connect server, the workers (with their executors) and the master,
// and removes their state files. Stopping what is already gone is not an error.
func (c *Cluster) Stop() error {
	var errs []error
	stop := func(st *service.State) {
		if st != nil {
			if err := st.Stop(30 * time.Second); err != nil {
				errs = append(errs, err)
			}
		}
	}
	stop(c.connect)
	for _, w := range c.Workers {
		if w != nil {
			stop(w.st)
		}
	}
	stop(c.master)
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("bigdata/spark: stop the cluster: %w", err)
	}
	return nil
}

// RunningCluster returns the cluster recorded under cfg.Dir when its master and Spark
// Connect server are alive (workers that died are left out of Workers, as nil).
func RunningCluster(cfg ClusterConfig) (*Cluster, bool) {
	c, ok := recorded(cfg)
	if !ok || c.master == nil || c.connect == nil {
		return nil, false
	}
	return c, true
}

// recorded loads whatever processes of the cluster of cfg are still running.
func recorded(cfg ClusterConfig) (*Cluster, bool) {
	cfg, err := cfg.withDefaults()
	if err != nil {
		return nil, false
	}
	c := cfg.cluster()
	c.master = service.Load(cfg.masterStateFile())
	found := c.master != nil
	if st := service.Load(cfg.Connect.stateFile(cfg.Dir)); st != nil {
		c.setConnect(st)
		found = true
	}
	// The highest index is read from the names: a dead worker's file is removed when it is
	// found dead, so counting the files could miss the workers after it.
	n := 0
	files, _ := filepath.Glob(filepath.Join(cfg.Dir, "worker-*.json"))
	for _, f := range files {
		var i int
		if _, err := fmt.Sscanf(filepath.Base(f), "worker-%d.json", &i); err == nil {
			n = max(n, i+1)
		}
	}
	c.Workers = make([]*Worker, n)
	for i := range n {
		if st := service.Load(cfg.workerStateFile(i)); st != nil {
			c.Workers[i] = workerOf(i, cfg.workerUIPort(i), st)
			found = true
		}
	}
	return c, found
}

// StopCluster stops the cluster of cfg when any of its processes runs; none is not an error.
func StopCluster(cfg ClusterConfig) error {
	if c, ok := recorded(cfg); ok {
		return c.Stop()
	}
	return nil
}

// Executor is one executor as the driver's REST API (/api/v1/applications/…/allexecutors)
// reports it.
type Executor struct {
	ID             string `json:"id"` // "driver", "0", "1", …
	HostPort       string `json:"hostPort"`
	IsActive       bool   `json:"isActive"`
	ActiveTasks    int    `json:"activeTasks"`
	CompletedTasks int    `json:"completedTasks"`
	FailedTasks    int    `json:"failedTasks"`
	TotalTasks     int    `json:"totalTasks"`
}

// Stage is one stage attempt as the driver's REST API (/api/v1/applications/…/stages)
// reports it: a stage run again after a lost executor appears with AttemptID > 0.
type Stage struct {
	StageID          int    `json:"stageId"`
	AttemptID        int    `json:"attemptId"`
	Status           string `json:"status"` // ACTIVE, COMPLETE, FAILED, PENDING, SKIPPED
	NumTasks         int    `json:"numTasks"`
	NumCompleteTasks int    `json:"numCompleteTasks"`
	NumFailedTasks   int    `json:"numFailedTasks"`
	Name             string `json:"name"`
}

// Executors returns every executor the driver has had, the lost ones included (IsActive
// false), without the driver itself.
func (c *Cluster) Executors(ctx context.Context) ([]Executor, error) {
	app, err := c.appID(ctx)
	if err != nil {
		return nil, err
	}
	var all []Executor
	if err := getJSON(ctx, c.DriverUI+"/api/v1/applications/"+app+"/allexecutors", &all); err != nil {
		return nil, err
	}
	out := all[:0]
	for _, e := range all {
		if e.ID != "driver" {
			out = append(out, e)
		}
	}
	return out, nil
}

// Stages returns the stage attempts the driver has run or is running.
func (c *Cluster) Stages(ctx context.Context) ([]Stage, error) {
	app, err := c.appID(ctx)
	if err != nil {
		return nil, err
	}
	var st []Stage
	if err := getJSON(ctx, c.DriverUI+"/api/v1/applications/"+app+"/stages", &st); err != nil {
		return nil, err
	}
	return st, nil
}

func (c *Cluster) appID(ctx context.Context) (string, error) {
	var apps []struct {
		ID string `json:"id"`
	}
	if err := getJSON(ctx, c.DriverUI+"/api/v1/applications", &apps); err != nil {
		return "", err
	}
	if len(apps) != 1 {
		return "", fmt.Errorf("bigdata/spark: the driver at %s lists %d applications, want its own 1", c.DriverUI, len(apps))
	}
	return apps[0].ID, nil
}

func getJSON(ctx context.Context, url string, v any) error {
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return fmt.Errorf("bigdata/spark: GET %s: %w", url, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("bigdata/spark: GET %s: %s", url, resp.Status)
	}
	if err := json.NewDecoder(resp.Body).Decode(v); err != nil {
		return fmt.Errorf("bigdata/spark: GET %s: %w", url, err)
	}
	return nil
}
