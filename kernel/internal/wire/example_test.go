package wire_test

import (
	"fmt"

	"github.com/dlbd/dlbd/kernel/internal/wire"
)

// ExampleEncode signs a kernel_info_request and decodes it again. The
// signature is HMAC-SHA256("secret", header+parent+metadata+content).
func ExampleEncode() {
	s, _ := wire.NewSigner(wire.SchemeHMACSHA256, []byte("secret"))
	frames := wire.Encode(s, wire.Parts{
		Header:  []byte(`{"msg_id":"1","msg_type":"kernel_info_request"}`),
		Content: []byte(`{}`),
	})
	for _, f := range frames {
		fmt.Printf("%s\n", f)
	}
	p, err := wire.Decode(s, frames)
	fmt.Println(string(p.Header), err)
	// Output:
	// <IDS|MSG>
	// 0fca6e189cdcc0095e523565e0900c86cd24e5e0bfab2105ab98d33a07a29a4e
	// {"msg_id":"1","msg_type":"kernel_info_request"}
	// {}
	// {}
	// {}
	// {"msg_id":"1","msg_type":"kernel_info_request"} <nil>
}
