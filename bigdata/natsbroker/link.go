//go:build !dlbd_stateful

package natsbroker

// The NATS server and client; the stateful kernel links them into its host
// instead (see bigdata/internal/linked).
import _ "github.com/dlbd/dlbd/bigdata/natsbroker/embedded"
