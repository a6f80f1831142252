package protocol_test

import (
	"fmt"

	"github.com/dlbd/dlbd/kernel/protocol"
)

// ExampleKernelInfoReply_ProtocolAtLeast checks a kernel's protocol version.
func ExampleKernelInfoReply_ProtocolAtLeast() {
	ok, err := protocol.KernelInfoReply{ProtocolVersion: "5.4"}.ProtocolAtLeast(5, 3)
	fmt.Println(ok, err)
	// Output: true <nil>
}

// ExampleExecuteReply_MarshalJSON shows the fields the spec gives each
// status of an execute_reply.
func ExampleExecuteReply_MarshalJSON() {
	for _, r := range []protocol.ExecuteReply{
		{Status: "ok", ExecutionCount: 1},
		{Status: "error", ExecutionCount: 2, EName: "panic", EValue: "boom", Traceback: []string{"panic: boom"}},
		{Status: "aborted"},
	} {
		b, _ := protocol.Marshal(r)
		fmt.Println(string(b))
	}
	// Output:
	// {"status":"ok","execution_count":1,"user_expressions":{},"payload":[]}
	// {"status":"error","execution_count":2,"ename":"panic","evalue":"boom","traceback":["panic: boom"]}
	// {"status":"aborted","execution_count":null}
}
