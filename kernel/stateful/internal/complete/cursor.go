package complete

import "unicode/utf8"

// ByteOffset returns the byte offset in s of the position cp counted in
// Unicode code points, as Jupyter's cursor_pos counts; ok is false when cp
// is outside [0, the number of code points in s]. A byte that is not
// valid UTF-8 counts as one code point, as in [CodePoints].
func ByteOffset(s string, cp int) (off int, ok bool) {
	if cp < 0 {
		return 0, false
	}
	for n := 0; n < cp; n++ {
		if off >= len(s) {
			return 0, false
		}
		_, size := utf8.DecodeRuneInString(s[off:])
		off += size
	}
	return off, true
}

// CodePoints returns the position of byte offset off in s counted in
// Unicode code points: the number of code points in s[:off].
func CodePoints(s string, off int) int { return utf8.RuneCountInString(s[:off]) }
