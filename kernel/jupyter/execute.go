package jupyter

import (
	"context"
	"fmt"
	"time"

	"github.com/dlbd/dlbd/kernel/protocol"
)

// Execute runs code as a Jupyter front-end does: execute_request with
// store_history true, allow_stdin false, stop_on_error true and no user
// expressions. See [Client.ExecuteWith].
func (c *Client) Execute(ctx context.Context, code string) (*Execution, error) {
	return c.ExecuteWith(ctx, protocol.ExecuteRequest{Code: code, StoreHistory: true, StopOnError: true}, nil)
}

// ExecuteWith sends req on shell and collects, until both the execute_reply
// and the IOPub status "idle" for the request have arrived, every output
// message the kernel publishes for it (stream, display_data,
// update_display_data, execute_result, error, clear_output). An
// input_request on stdin is answered with an empty line. When onOutput is
// not nil it is called with each output message as soon as it arrives, on
// the caller's goroutine (to show progress, or to act once a cell has
// printed something).
//
// The Execution is returned even on error, with what arrived so far. The
// error is a *[CellError] when the kernel replied with a status other than
// "ok" (the cell failed), and another error when no complete answer came:
// ctx ended, the client was closed or the kernel exited.
func (c *Client) ExecuteWith(ctx context.Context, req protocol.ExecuteRequest, onOutput func(*Message)) (*Execution, error) {
	if req.UserExpressions == nil {
		req.UserExpressions = map[string]string{}
	}
	m, err := c.NewMessage("execute_request", req)
	if err != nil {
		return nil, err
	}
	ex := &Execution{Request: m}
	s := c.Subscribe(m)
	defer s.Close()
	start := time.Now()
	if err := c.Send(ctx, protocol.Shell, m); err != nil {
		return ex, err
	}
	replied, idle := false, false
	for !(replied && idle) {
		r, err := s.Next(ctx)
		if err != nil {
			return ex, fmt.Errorf("jupyter: execute_request (reply received: %v, idle received: %v): %w", replied, idle, err)
		}
		switch {
		case r.Channel == protocol.Shell && r.Header.MsgType == "execute_reply":
			if err := r.DecodeContent(&ex.Reply); err != nil {
				return ex, err
			}
			replied = true
		case r.Channel == protocol.IOPub && r.Header.MsgType == "status":
			var st protocol.Status
			if err := r.DecodeContent(&st); err != nil {
				return ex, err
			}
			idle = idle || st.ExecutionState == "idle"
		case r.Channel == protocol.IOPub && outputTypes[r.Header.MsgType]:
			ex.Outputs = append(ex.Outputs, r)
			if onOutput != nil {
				onOutput(r)
			}
		case r.Channel == protocol.Stdin && r.Header.MsgType == "input_request":
			if err := c.answerInput(ctx, r); err != nil {
				return ex, err
			}
		}
	}
	ex.Elapsed = time.Since(start)
	if ex.Reply.Status != "ok" {
		return ex, &CellError{Status: ex.Reply.Status, EName: ex.Reply.EName, EValue: ex.Reply.EValue, Traceback: ex.Reply.Traceback}
	}
	return ex, nil
}

// answerInput replies to an input_request with an empty line, so that a
// cell asking for input does not wait forever for a user who is not there.
func (c *Client) answerInput(ctx context.Context, req *Message) error {
	m, err := c.NewMessage("input_reply", protocol.InputReply{})
	if err != nil {
		return err
	}
	m.ParentHeader = req.Header
	return c.Send(ctx, protocol.Stdin, m)
}
