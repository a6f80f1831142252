//go:build !dlbd_stateful

package kafka

// The franz-go client; the stateful kernel links it into its host instead
// (see bigdata/internal/linked).
import _ "github.com/dlbd/dlbd/bigdata/kafka/franz"
