package spark

import (
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/dlbd/dlbd/internal/checkout"
)

// DefaultPort is Spark Connect's standard port.
const DefaultPort = 15002

// RemoteEnv names the environment variable with the sc:// URL of an existing Spark Connect
// server (the same variable pyspark reads); when set, Ensure connects there.
const RemoteEnv = "SPARK_REMOTE"

// Config configures the local server; the zero value is sized for a 2-core / 8 GB laptop.
type Config struct {
	Port              int           // Spark Connect port (spark.connect.grpc.binding.port); default 15002
	Cores             int           // task slots: the master is local[Cores,TaskMaxFailures]; default 2
	DriverMemory      string        // JVM heap (spark-submit --driver-memory); default "1g"
	ShufflePartitions int           // spark.sql.shuffle.partitions; default 2·Cores (Spark's default is 200)
	TaskMaxFailures   int           // attempts per task before the job fails (spark.task.maxFailures); default 2
	Home              string        // SPARK_HOME; default: pyspark in <repo>/.venv (scripts/setup.sh)
	Java              string        // java command; default $JAVA_HOME/bin/java, else java on PATH
	Dir               string        // state file, log and scratch space; default <repo>/build/spark
	StartTimeout      time.Duration // how long to wait for the port; default 2 minutes
	Watch             int           // stop the server when this process exits; default 0 (never)
}

func (c Config) withDefaults() Config {
	if c.Port == 0 {
		c.Port = DefaultPort
	}
	if c.Cores == 0 {
		c.Cores = 2
	}
	if c.DriverMemory == "" {
		c.DriverMemory = "1g"
	}
	if c.ShufflePartitions == 0 {
		c.ShufflePartitions = 2 * c.Cores
	}
	if c.TaskMaxFailures == 0 {
		c.TaskMaxFailures = 2
	}
	if c.StartTimeout == 0 {
		c.StartTimeout = 2 * time.Minute
	}
	return c
}

// dir returns Config.Dir or its default.
func (c Config) dir() (string, error) {
	if c.Dir != "" {
		return c.Dir, nil
	}
	r, err := checkout.Root()
	if err != nil {
		return "", fmt.Errorf("bigdata/spark: %w (or set Config.Dir)", err)
	}
	return filepath.Join(r, "build", "spark"), nil
}

func (c Config) stateFile(dir string) string {
	return filepath.Join(dir, fmt.Sprintf("server-%d.json", c.Port))
}

// home returns SPARK_HOME: Config.Home, else pyspark in the checkout's .venv.
func (c Config) home() (string, error) {
	if c.Home != "" {
		if _, err := os.Stat(filepath.Join(c.Home, "bin", "spark-submit")); err != nil {
			return "", fmt.Errorf("bigdata/spark: %s has no bin/spark-submit: set Config.Home to a Spark or pyspark directory", c.Home)
		}
		return c.Home, nil
	}
	r, err := checkout.Root()
	if err != nil {
		return "", fmt.Errorf("bigdata/spark: %w (or set Config.Home)", err)
	}
	found, _ := filepath.Glob(filepath.Join(r, ".venv", "lib", "python3*", "site-packages", "pyspark", "bin", "spark-submit"))
	if len(found) == 0 {
		return "", fmt.Errorf("bigdata/spark: Spark is not installed in %s/.venv: run scripts/setup.sh (it installs pyspark from requirements-bigdata.txt)", r)
	}
	return filepath.Dir(filepath.Dir(found[0])), nil
}
