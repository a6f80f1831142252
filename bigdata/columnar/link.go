//go:build !dlbd_stateful

package columnar

// The Parquet codecs; the stateful kernel links them into its host instead
// (see bigdata/internal/linked).
import _ "github.com/dlbd/dlbd/bigdata/columnar/parquetio"
