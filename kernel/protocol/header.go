package protocol

import (
	"crypto/rand"
	"encoding/hex"
	"time"
)

// Version is the version of the Jupyter messaging protocol the dlbd kernel
// speaks: GoNB v0.11.4's, which GoNB announces in its kernel_info_reply and
// writes in the header of every message it sends. The kernel's front end
// writes it in the messages it sends itself, and the test client
// (kernel/jupyter) in its requests.
const Version = "5.4"

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
	// Version is the protocol version, like "5.4".
	Version string `json:"version"`
}

// dateFormat is ISO 8601 in UTC with microseconds, as jupyter_client writes
// dates.
const dateFormat = "2006-01-02T15:04:05.000000Z"

// NewHeader returns the header of a new message of type msgType sent by
// username in session: a fresh MsgID ([NewID]), the current time and
// [Version].
func NewHeader(msgType, session, username string) Header {
	return Header{
		MsgID:    NewID(),
		Session:  session,
		Username: username,
		Date:     time.Now().UTC().Format(dateFormat),
		MsgType:  msgType,
		Version:  Version,
	}
}

// NewID returns a random UUID (version 4), the form of the message, session
// and kernel ids jupyter_client makes.
func NewID() string {
	var b [16]byte
	rand.Read(b[:]) // crypto/rand.Read never fails on supported platforms
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	h := hex.EncodeToString(b[:])
	return h[0:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:]
}
