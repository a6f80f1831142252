package spark

import (
	"context"
	"fmt"
	"reflect"
	"time"

	"github.com/apache/spark-connect-go/spark/client/channel"
	"github.com/apache/spark-connect-go/spark/sql"
	"google.golang.org/grpc"
	"google.golang.org/grpc/mem"
	"google.golang.org/grpc/metadata"
	"google.golang.org/protobuf/encoding/protowire"
)

// keptConn is the channel.Builder of a session that keeps the gRPC connection it
// builds: the Go client's SparkSession.Stop neither releases the session on the server
// nor closes the connection, and Close does both with it.
type keptConn struct {
	channel.Builder
	conn *grpc.ClientConn
}

// Build implements channel.Builder.
func (k *keptConn) Build(ctx context.Context) (*grpc.ClientConn, error) {
	c, err := k.Builder.Build(ctx)
	k.conn = c
	return c, err
}

// releaseSessionMethod is Spark Connect's RPC that ends a session on the server
// (spark/connect/base.proto: ReleaseSession, Spark 3.5 and later).
const releaseSessionMethod = "/spark.connect.SparkConnectService/ReleaseSession"

// releaseTimeout bounds Close's ReleaseSession call.
const releaseTimeout = 10 * time.Second

// release ends the session id on the server: its temporary views, cached data and
// state are dropped there, as PySpark's spark.stop() does. It reports whether the
// server still had the session (its answer then names the session's server-side id).
func (k *keptConn) release(ctx context.Context, id string) (existed bool, err error) {
	md := metadata.MD{}
	for h, v := range k.Headers() {
		md.Append(h, v)
	}
	ctx = metadata.NewOutgoingContext(ctx, md)
	// ReleaseSessionRequest{session_id: 1, user_context: 2 {user_id: 1}, client_type: 3}.
	var user []byte
	user = protowire.AppendTag(user, 1, protowire.BytesType)
	user = protowire.AppendString(user, k.User())
	var req []byte
	req = protowire.AppendTag(req, 1, protowire.BytesType)
	req = protowire.AppendString(req, id)
	req = protowire.AppendTag(req, 2, protowire.BytesType)
	req = protowire.AppendBytes(req, user)
	req = protowire.AppendTag(req, 3, protowire.BytesType)
	req = protowire.AppendString(req, "dlbd/bigdata-spark")
	var resp rawMessage
	if err := k.conn.Invoke(ctx, releaseSessionMethod, rawMessage(req), &resp, grpc.ForceCodecV2(rawCodec{})); err != nil {
		return false, fmt.Errorf("bigdata/spark: release session %s on the server: %w", id, err)
	}
	// ReleaseSessionResponse{session_id: 1, server_side_session_id: 2}: the server sets
	// the second only when it had the session.
	for b := []byte(resp); len(b) > 0; {
		num, typ, n := protowire.ConsumeTag(b)
		if n < 0 {
			return false, fmt.Errorf("bigdata/spark: release session %s: bad answer from the server: %w", id, protowire.ParseError(n))
		}
		b = b[n:]
		if num == 2 && typ == protowire.BytesType {
			v, m := protowire.ConsumeBytes(b)
			if m < 0 {
				return false, fmt.Errorf("bigdata/spark: release session %s: bad answer from the server: %w", id, protowire.ParseError(m))
			}
			existed = len(v) > 0
		}
		m := protowire.ConsumeFieldValue(num, typ, b)
		if m < 0 {
			return false, fmt.Errorf("bigdata/spark: release session %s: bad answer from the server: %w", id, protowire.ParseError(m))
		}
		b = b[m:]
	}
	return existed, nil
}

// Release ends the session id (Session.ID) on the Spark Connect server at url and
// reports whether the server still had it: false once the session's own Close, or the
// kernel's shutdown, released it. Instructors can end a session a student left open.
func Release(ctx context.Context, url, id string) (existed bool, err error) {
	cb, err := channel.NewBuilder(url)
	if err != nil {
		return false, fmt.Errorf("bigdata/spark: %q is not a Spark Connect URL (%v): write sc://host:port", url, err)
	}
	k := &keptConn{Builder: cb}
	if _, err := k.Build(ctx); err != nil {
		return false, fmt.Errorf("bigdata/spark: connect to %s: %w", url, err)
	}
	defer k.conn.Close()
	return k.release(ctx, id)
}

// sessionIDOf returns the id the Go client gave its session (a private field of its
// implementation, which exposes no getter), or "" when that field is not there (a
// version of the client that keeps it elsewhere: TestCloseReleasesTheSession fails).
func sessionIDOf(s sql.SparkSession) string {
	v := reflect.ValueOf(s)
	if v.Kind() != reflect.Pointer || v.Elem().Kind() != reflect.Struct {
		return ""
	}
	if f := v.Elem().FieldByName("sessionId"); f.IsValid() && f.Kind() == reflect.String {
		return f.String()
	}
	return ""
}

// rawMessage is a protobuf message already encoded.
type rawMessage []byte

// rawCodec sends and receives rawMessages as they are.
type rawCodec struct{}

func (rawCodec) Name() string { return "proto" }

func (rawCodec) Marshal(v any) (mem.BufferSlice, error) {
	m, ok := v.(rawMessage)
	if !ok {
		return nil, fmt.Errorf("bigdata/spark: rawCodec cannot marshal %T", v)
	}
	return mem.BufferSlice{mem.SliceBuffer(m)}, nil
}

func (rawCodec) Unmarshal(data mem.BufferSlice, v any) error {
	m, ok := v.(*rawMessage)
	if !ok {
		return fmt.Errorf("bigdata/spark: rawCodec cannot unmarshal into %T", v)
	}
	*m = data.Materialize()
	return nil
}
