package protocol

// Version is the Jupyter messaging protocol version the kernel's own
// messages (and the test client's) write in their headers.
const Version = "5.3"

// Header is a message header, as in the spec's section "Message Header"
// (https://jupyter-client.readthedocs.io/en/latest/messaging.html#message-header).
type Header struct {
	// MsgID is unique per message (a random UUID here).
	MsgID string `json:"msg_id"`
	// Session is unique per client session.
	Session string `json:"session"`
	// Username is the user that sent the message.
	Username string `json:"username"`
	// Date is an ISO 8601 timestamp of creation.
	Date string `json:"date"`
	// MsgType is the message type, like "execute_request".
	MsgType string `json:"msg_type"`
	// Version is the protocol version, like "5.3".
	Version string `json:"version"`
}
