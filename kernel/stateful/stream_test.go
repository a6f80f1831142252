package stateful

import (
	"io"
	"strings"
	"testing"
	"testing/iotest"
)

func TestStreamReaderMarkers(t *testing.T) {
	const marker = "\x1eDLBD-END-abc:"
	input := "hola " + "ñandú\n" + marker + "1\n" + "después" + marker + "2\n" + "fin"
	for _, r := range map[string]io.Reader{
		"whole":  strings.NewReader(input),
		"bytes":  iotest.OneByteReader(strings.NewReader(input)),
		"halves": iotest.HalfReader(strings.NewReader(input)),
	} {
		var text strings.Builder
		s := &streamReader{r: r, marker: []byte(marker),
			write: func(t string) {
				if !strings.Contains(t, "\ufffd") && !utf8Valid(t) {
					t = "<invalid utf-8>"
				}
				text.WriteString(t)
			},
			ended: func(id int) { text.WriteString("|" + string(rune('0'+id)) + "|") }}
		s.run()
		if got, want := text.String(), "hola ñandú\n|1|después|2|fin"; got != want {
			t.Errorf("stream = %q; want %q", got, want)
		}
	}
}

func utf8Valid(s string) bool { return strings.ToValidUTF8(s, "\ufffd") == s }
