package spark

import (
	"context"
	"fmt"
	"os"
	"regexp"
	"strings"
	"time"

	"github.com/apache/spark-connect-go/spark/sql"
	"github.com/apache/spark-connect-go/spark/sql/functions"
	"github.com/apache/spark-connect-go/spark/sql/utils"
)

// WordsSQL is mapreduce.Words in Spark SQL: lower-case, split on runs of non-letters,
// one row per word (empty strings are filtered after it).
const WordsSQL = `explode(split(lower(value), '[^\\p{L}]+')) AS word`

// WordCount returns the word count of the text files at path as a DataFrame of (word,
// count): read as lines, WordsSQL, then a groupBy whose shuffle is the MapReduce shuffle.
// Nothing runs until the DataFrame is collected (or explained).
func (s *Session) WordCount(ctx context.Context, path string) (sql.DataFrame, error) {
	lines, err := s.Read().Format("text").Load(path)
	if err != nil {
		return nil, fmt.Errorf("bigdata/spark: read %s: %w", path, err)
	}
	return WordCountOf(ctx, lines)
}

// WordCountOf is WordCount over a DataFrame of lines (a string column "value").
func WordCountOf(ctx context.Context, lines sql.DataFrame) (sql.DataFrame, error) {
	words, err := lines.SelectExpr(ctx, WordsSQL)
	if err == nil {
		words, err = words.Where(ctx, "word <> ''")
	}
	if err != nil {
		return nil, fmt.Errorf("bigdata/spark: word count: %w", err)
	}
	counts, err := words.GroupBy(functions.Col("word")).Count(ctx)
	if err != nil {
		return nil, fmt.Errorf("bigdata/spark: word count: %w", err)
	}
	return counts, nil
}

// Counts collects a DataFrame of (string, integer) rows, such as WordCount's, into a map.
func Counts(ctx context.Context, df sql.DataFrame) (map[string]int64, error) {
	res, err := Collect(ctx, df)
	if err != nil {
		return nil, err
	}
	out := make(map[string]int64, len(res.Rows))
	for _, r := range res.Rows {
		k, ok1 := r[0].(string)
		v, ok2 := r[1].(int64)
		if len(r) != 2 || !ok1 || !ok2 {
			return nil, fmt.Errorf("bigdata/spark: Counts wants (string, integer) rows, got %v (columns %v)", r, res.Columns)
		}
		out[k] = v
	}
	return out, nil
}

// InjectTaskFailure returns lines (a DataFrame with a string column "value") with a
// booby trap: the first attempt of the task that reads partition 0 fails once, with
// "fallo inyectado". The trap uses a JVM system property as its memory (set through SQL's
// reflect), so the re-run of the task succeeds: the job's answer is unchanged and the
// server log shows the lost task and its re-run. One trap per key; a new key arms a new one.
//
// In local mode every task runs in the server's JVM, so the property is seen by the re-run;
// on a cluster the re-run may land on another executor, where the trap fires once more
// (it still succeeds within spark.task.maxFailures ≥ 3).
func InjectTaskFailure(ctx context.Context, lines sql.DataFrame, key string) (sql.DataFrame, error) {
	if !regexp.MustCompile(`^[A-Za-z0-9._-]+$`).MatchString(key) {
		return nil, fmt.Errorf("bigdata/spark: InjectTaskFailure key %q: use letters, digits, '.', '_' or '-'", key)
	}
	// monotonically_increasing_id() is 0 only for the first row of partition 0; setProperty
	// returns the previous value, null the first time (which reflect writes as "null").
	expr := fmt.Sprintf(`CASE WHEN monotonically_increasing_id() = 0
		AND coalesce(reflect('java.lang.System', 'setProperty', 'dlbd.trap.%s', 'disparada'), 'null') = 'null'
		THEN raise_error('fallo inyectado en la partición 0 (%s)') ELSE value END AS value`, key, key)
	df, err := lines.SelectExpr(ctx, expr)
	if err != nil {
		return nil, fmt.Errorf("bigdata/spark: InjectTaskFailure: %w", err)
	}
	return df, nil
}

// NewTrapKey returns a fresh key for InjectTaskFailure.
func NewTrapKey() string { return fmt.Sprintf("t%d", time.Now().UnixNano()) }

// LogMark returns the current size of the server's log, to pass to TaskFailures.
func (s *Server) LogMark() int64 {
	fi, err := os.Stat(s.Log)
	if err != nil {
		return 0
	}
	return fi.Size()
}

// TaskFailures returns the lines the scheduler logged after mark about lost tasks
// ("Lost task 0.0 in stage 3.0 … fallo inyectado"): task 0.0 is attempt 0 of partition 0,
// and its re-run is 0.1.
func (s *Server) TaskFailures(mark int64) ([]string, error) {
	data, err := os.ReadFile(s.Log)
	if err != nil {
		return nil, fmt.Errorf("bigdata/spark: read the server log: %w", err)
	}
	if mark > int64(len(data)) {
		mark = 0
	}
	var out []string
	for _, l := range strings.Split(string(data[mark:]), "\n") {
		if strings.Contains(l, "Lost task") {
			out = append(out, strings.TrimSpace(l))
		}
	}
	return out, nil
}

// Plan returns the physical plan Spark chose for df (df.explain() in PySpark): the stages,
// and the Exchange operators where data is shuffled between them.
func Plan(ctx context.Context, df sql.DataFrame) (string, error) {
	p, err := df.Explain(ctx, utils.ExplainModeSimple)
	if err != nil {
		return "", fmt.Errorf("bigdata/spark: explain: %w", err)
	}
	return p, nil
}
