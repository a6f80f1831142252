package frontend

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"
)

// gonbPanic is the stderr GoNB v0.11.4 streamed for cell 4,
// "func f() { var m map[string]int; m[\"a\"]=1 }\n%%\nf()", chunks joined.
const gonbPanic = "panic: assignment to entry in nil map\n\ngoroutine 1 [running]:\nmain.f(...)\n" +
	"\t \x1b[7m[[ Cell [4] Line 1 ]]\x1b[0m /tmp/gonb_8d05c26b/main.go:7\nmain.main()\n" +
	"\t \x1b[7m[[ Cell [4] Line 3 ]]\x1b[0m /tmp/gonb_8d05c26b/main.go:12 +0x68\nexit status 2\n"

func TestParsePanic(t *testing.T) {
	tests := []struct {
		name, stderr string
		want         Panic
		ok           bool
	}{
		{name: "gonb", stderr: gonbPanic, ok: true, want: Panic{Kind: "panic", Message: "assignment to entry in nil map",
			Frames: []Frame{{"main.f(...)", 4, 1}, {"main.main()", 4, 3}}}},
		{name: "output-before", stderr: "progreso 10%\nprogreso 20%\n" + gonbPanic, ok: true,
			want: Panic{Kind: "panic", Message: "assignment to entry in nil map", Frames: []Frame{{"main.f(...)", 4, 1}, {"main.main()", 4, 3}}}},
		{name: "nil-pointer", ok: true, stderr: "panic: runtime error: invalid memory address or nil pointer dereference\n" +
			"[signal SIGSEGV: segmentation violation code=0x1 addr=0x0 pc=0x4a1b2c]\n\ngoroutine 1 [running]:\nmain.main()\n" +
			"\t [[ Cell [2] Line 5 ]] /tmp/gonb_1/main.go:20 +0x1c\nexit status 2\n",
			want: Panic{Kind: "panic", Message: "runtime error: invalid memory address or nil pointer dereference\n" +
				"[signal SIGSEGV: segmentation violation code=0x1 addr=0x0 pc=0x4a1b2c]", Frames: []Frame{{"main.main()", 2, 5}}}},
		{name: "library-frame", ok: true, stderr: "panic: dl: matmul: shapes [2 3] and [4 5] do not match\n\ngoroutine 1 [running]:\n" +
			"github.com/dlbd/dlbd/dl.MatMul(...)\n\t/repo/dl/matmul.go:40 +0x99\nmain.main()\n\t [[ Cell [7] Line 2 ]] /tmp/g/main.go:9\n",
			want: Panic{Kind: "panic", Message: "dl: matmul: shapes [2 3] and [4 5] do not match", Frames: []Frame{{"main.main()", 7, 2}}}},
		{name: "deadlock", ok: true, stderr: "fatal error: all goroutines are asleep - deadlock!\n\ngoroutine 1 [chan receive]:\nmain.main()\n" +
			"\t [[ Cell [3] Line 2 ]] /tmp/g/main.go:9 +0x2d\nexit status 2\n",
			want: Panic{Kind: "fatal error", Message: "all goroutines are asleep - deadlock!", Frames: []Frame{{"main.main()", 3, 2}}}},
		{name: "no-frames", ok: true, stderr: "panic: boom\n\ngoroutine 1 [running]:\nmain.main()\n\t/tmp/x.go:3\n",
			want: Panic{Kind: "panic", Message: "boom"}},
		{name: "exit-only", stderr: "exit status 1\n"},
		{name: "log-fatal", stderr: "2025/01/01 12:00:00 no such file\nexit status 1\n"},
		{name: "panic-mid-line", stderr: "dijo panic: no\nexit status 1\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := ParsePanic(tt.stderr)
			if ok != tt.ok || !reflect.DeepEqual(got, tt.want) {
				t.Errorf("ParsePanic = %+v, %v; want %+v, %v", got, ok, tt.want, tt.ok)
			}
		})
	}
}

func TestPanicSummaryAndTraceback(t *testing.T) {
	p, _ := ParsePanic(gonbPanic)
	if got, want := p.Summary(), "assignment to entry in nil map (Cell [4] Line 1)"; got != want {
		t.Errorf("Summary = %q; want %q", got, want)
	}
	want := []string{"panic: assignment to entry in nil map", "\tmain.f(...) [[ Cell [4] Line 1 ]]", "\tmain.main() [[ Cell [4] Line 3 ]]"}
	if got := p.Traceback(); !reflect.DeepEqual(got, want) {
		t.Errorf("Traceback = %q; want %q", got, want)
	}
	if got := (Panic{Kind: "panic", Message: "boom"}).Summary(); got != "boom" {
		t.Errorf("Summary without frames = %q; want the message alone", got)
	}
}

// reply is GoNB's execute_reply content after a panic.
const reply = `{"ename":"ERROR","evalue":"exit status 2","execution_count":4,"status":"error","traceback":["exit status 2"],"user_expressions":{"a":"<b>"}}`

func TestRewriteKeepsOtherFields(t *testing.T) {
	out, f := rewrite([]byte(reply), gonbPanic, nil)
	if f == nil {
		t.Fatal("rewrite did not rewrite GoNB's panic reply")
	}
	var got map[string]any
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("rewritten content %s: %v", out, err)
	}
	if got["ename"] != "panic" || got["evalue"] != "assignment to entry in nil map (Cell [4] Line 1)" ||
		got["execution_count"] != 4.0 || got["status"] != "error" || fmt.Sprint(got["user_expressions"]) != "map[a:<b>]" {
		t.Errorf("rewritten content = %s", out)
	}
	if tb := fmt.Sprint(got["traceback"]); !strings.HasSuffix(tb, "exit status 2]") {
		t.Errorf("traceback %s does not end with GoNB's exit status", tb)
	}
	if strings.Contains(string(out), `\u003c`) {
		t.Errorf("rewritten content %s escapes HTML; GoNB does not", out)
	}
}

func TestRewriteLeavesOtherErrorsAlone(t *testing.T) {
	for _, tt := range []struct{ content, stderr string }{
		{`{"status":"error","ename":"ERROR","evalue":"exit status 1","traceback":["exit status 1"]}`, "exit status 1\n"},
		{`{"status":"error","ename":"ERROR","evalue":"# gonb\n./main.go:3: declared and not used: x\n"}`, gonbPanic},
		{`{"status":"ok","execution_count":1}`, gonbPanic},
		{`not json`, gonbPanic},
	} {
		if out, f := rewrite([]byte(tt.content), tt.stderr, nil); out != nil || f != nil {
			t.Errorf("rewrite(%s) = %s; want no change", tt.content, out)
		}
	}
}

func TestCellsPairReplyWithPublishedError(t *testing.T) {
	var cs cells
	cs.start("req")
	for _, chunk := range []string{"panic: ", "boom", "\n\ngoroutine 1 [running]:\nmain.main()\n\t [[ Cell [1] Line 2 ]] x.go:1\n"} {
		cs.stream("req", []byte(fmt.Sprintf(`{"name":"stderr","text":%q}`, chunk)))
	}
	cs.stream("req", []byte(`{"name":"stdout","text":"panic: not this one\n"}`))
	done := make(chan []byte)
	go func() { done <- cs.reply("req", []byte(reply)) }() // waits for the IOPub error
	time.Sleep(20 * time.Millisecond)
	pub := cs.published("req", []byte(`{"ename":"ERROR","evalue":"exit status 2","traceback":["exit status 2"]}`))
	if !strings.Contains(string(pub), `"evalue":"boom (Cell [1] Line 2)"`) {
		t.Errorf("published error rewritten to %s", pub)
	}
	if r := <-done; !strings.Contains(string(r), `"evalue":"boom (Cell [1] Line 2)"`) || !strings.Contains(string(r), `"execution_count":4`) {
		t.Errorf("reply rewritten to %s", r)
	}
	if cs.watching("req") {
		t.Error("request still watched after its reply")
	}
}

func TestCellsBounded(t *testing.T) {
	var cs cells
	for i := range maxCells + 10 {
		cs.start(fmt.Sprint(i))
	}
	if cs.watching("0") || !cs.watching(fmt.Sprint(maxCells+9)) || len(cs.byID) != maxCells {
		t.Errorf("watching %d requests, oldest kept: %v; want the newest %d", len(cs.byID), cs.watching("0"), maxCells)
	}
	cs.start("big")
	cs.stream("big", []byte(fmt.Sprintf(`{"name":"stderr","text":%q}`, strings.Repeat("x", 3*maxStderr))))
	if n := len(cs.get("big").stderr); n != maxStderr {
		t.Errorf("kept %d bytes of stderr; want %d", n, maxStderr)
	}
}

func TestIDSet(t *testing.T) {
	var s idSet
	if !s.add("a") || s.add("a") {
		t.Error("add: want true for a new id, false for a repeated one")
	}
	if !s.take("a") || s.take("a") {
		t.Error("take: want true once")
	}
	for i := range maxIDs + 1 {
		s.add(fmt.Sprint(i))
	}
	if s.take("0") || !s.take(fmt.Sprint(maxIDs)) {
		t.Errorf("idSet kept its oldest member beyond %d", maxIDs)
	}
}
