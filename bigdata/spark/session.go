package spark

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/apache/spark-connect-go/spark/client/channel"
	"github.com/apache/spark-connect-go/spark/sql"

	"github.com/dlbd/dlbd/bigdata"
	"github.com/dlbd/dlbd/internal/resources"
)

// ErrUnreachable is wrapped by Connect when no Spark Connect server answers at the URL.
var ErrUnreachable = errors.New("no Spark Connect server answers")

// Session is a Spark Connect session: the Go client's sql.SparkSession (DataFrames, SQL,
// readers and writers) plus the bigdata.Engine methods.
type Session struct {
	sql.SparkSession
	URL string // the sc:// URL it is connected to

	conn   *keptConn
	forget func()
}

var _ bigdata.Engine = (*Session)(nil)

// ProbeTimeout bounds the first query of Connect, which checks that the server is Spark
// Connect and warms a fresh JVM (measured: 9 s on 2 cores).
const ProbeTimeout = 90 * time.Second

// Connect opens a session on the Spark Connect server at url (sc://host:port). It fails
// within seconds, wrapping ErrUnreachable, when nothing listens there, and within
// ProbeTimeout when something listens that does not answer as Spark Connect.
func Connect(ctx context.Context, url string) (*Session, error) {
	cb, err := channel.NewBuilder(url)
	if err != nil {
		return nil, fmt.Errorf("bigdata/spark: %q is not a Spark Connect URL (%v): write sc://host:port, e.g. sc://127.0.0.1:%d", url, err, DefaultPort)
	}
	addr := net.JoinHostPort(cb.Host(), strconv.Itoa(cb.Port()))
	conn, err := (&net.Dialer{Timeout: 5 * time.Second}).DialContext(ctx, "tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("bigdata/spark: %w at %s (%v): start the local one with spark.Ensure or `make spark-start`, or check the host and port of your cluster (%s)", ErrUnreachable, url, err, RemoteEnv)
	}
	conn.Close()
	kc := &keptConn{Builder: cb}
	s, err := sql.NewSessionBuilder().WithChannelBuilder(kc).Build(ctx)
	if err != nil {
		return nil, fmt.Errorf("bigdata/spark: connect to %s: %w", url, err)
	}
	pctx, cancel := context.WithTimeout(ctx, ProbeTimeout)
	defer cancel()
	df, err := s.Sql(pctx, "SELECT 1")
	if err == nil {
		_, err = df.Collect(pctx)
	}
	if err != nil {
		if pctx.Err() != nil {
			err = fmt.Errorf("no answer within %v", ProbeTimeout)
		}
		return nil, fmt.Errorf("bigdata/spark: %w at %s: something listens on %s but does not answer as Spark Connect (%v): check that the URL names a Spark Connect server (its log: build/spark/)", ErrUnreachable, url, addr, err)
	}
	ss := &Session{SparkSession: s, URL: url, conn: kc}
	ss.forget = resources.Track("Spark Connect session on "+url, ss)
	return ss, nil
}

// Ensure returns a session for a notebook cell: on $SPARK_REMOTE when set, else on the
// local server of cfg when it runs, else on a local server it starts. Inside a notebook
// (GONB_TMP_DIR set) and with cfg.Watch unset, a server it starts stops when the kernel
// exits.
func Ensure(ctx context.Context, cfg Config) (*Session, error) {
	if url := os.Getenv(RemoteEnv); url != "" {
		return Connect(ctx, url)
	}
	srv, ok := Running(cfg)
	if !ok {
		if cfg.Watch == 0 && os.Getenv("GONB_TMP_DIR") != "" {
			cfg.Watch = os.Getppid() // the kernel runs each cell as its child
		}
		var err error
		if srv, err = Start(ctx, cfg); err != nil {
			return nil, err
		}
	}
	return Connect(ctx, srv.URL)
}

// Name implements bigdata.Engine.
func (s *Session) Name() string { return "spark" }

// RegisterParquet implements bigdata.Engine with a temporary view over the Parquet files
// at path (a path on the server's machine). Views live as long as the session: a new cell
// registers them again.
func (s *Session) RegisterParquet(ctx context.Context, name, path string) error {
	q := fmt.Sprintf("CREATE OR REPLACE TEMPORARY VIEW %s USING parquet OPTIONS (path '%s')", name, strings.ReplaceAll(path, "'", "\\'"))
	if _, err := s.Sql(ctx, q); err != nil {
		return fmt.Errorf("bigdata/spark: register %s as %s: %w", path, name, err)
	}
	return nil
}

// Query implements bigdata.Engine: it runs query and collects every row.
func (s *Session) Query(ctx context.Context, query string) (*bigdata.Result, error) {
	df, err := s.Sql(ctx, query)
	if err != nil {
		return nil, fmt.Errorf("bigdata/spark: %w", err)
	}
	return Collect(ctx, df)
}

// Collect runs a DataFrame and returns its rows as a bigdata.Result, with integers as int64
// and floats as float64.
func Collect(ctx context.Context, df sql.DataFrame) (*bigdata.Result, error) {
	cols, err := df.Columns(ctx)
	if err != nil {
		return nil, fmt.Errorf("bigdata/spark: %w", err)
	}
	rows, err := df.Collect(ctx)
	if err != nil {
		return nil, fmt.Errorf("bigdata/spark: %w", err)
	}
	res := &bigdata.Result{Columns: cols, Rows: make([][]any, len(rows))}
	for i, r := range rows {
		vals := r.Values()
		for j, v := range vals {
			vals[j] = bigdata.Normalize(v)
		}
		res.Rows[i] = vals
	}
	return res, nil
}

// Close implements bigdata.Engine: it ends the session on the server (its temporary
// views and cached data go with it) and closes the connection; the server keeps
// running. In a notebook, a session no cell closed is closed when the kernel shuts down
// or restarts, or on %reset.
func (s *Session) Close() error {
	defer s.forget()
	err := s.Stop()
	if s.conn == nil || s.conn.conn == nil {
		return err
	}
	if id := s.ID(); id == "" {
		err = errors.Join(err, errors.New("bigdata/spark: the Go client's session id is not where this package reads it (a new version of spark-connect-go?): the session stays on the server until it times out"))
	} else {
		ctx, cancel := context.WithTimeout(context.Background(), releaseTimeout)
		defer cancel()
		_, rerr := s.conn.release(ctx, id)
		err = errors.Join(err, rerr)
	}
	return errors.Join(err, s.conn.conn.Close())
}

// ID returns the session's id, which the server knows it by (see Release).
func (s *Session) ID() string { return sessionIDOf(s.SparkSession) }
