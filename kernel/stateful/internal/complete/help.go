package complete

import (
	"strings"
	"unicode/utf8"
)

// Help reports whether code is an IPython help request, "?name" or
// "name?" ("??" asks for more: detail 1), and returns the name, which may
// be a selector ("dl.MatMulWith", "modelo.Forward"): Go has no "?", so no
// Go cell is one.
func Help(code string) (name string, detail int, ok bool) {
	code = strings.TrimSpace(code)
	for _, q := range []string{"??", "?"} {
		switch {
		case strings.HasPrefix(code, q):
			name = code[len(q):]
		case strings.HasSuffix(code, q):
			name = code[:len(code)-len(q)]
		default:
			continue
		}
		if len(q) == 2 {
			detail = 1
		}
		return name, detail, isSelector(name)
	}
	return "", 0, false
}

// isSelector reports whether s is identifiers joined by periods.
func isSelector(s string) bool {
	for _, part := range strings.Split(s, ".") {
		r, _ := utf8.DecodeRuneInString(part)
		if part == "" || r == '_' && len(part) == 1 || !isIdentRune(r) || r >= '0' && r <= '9' {
			return false
		}
		for _, r := range part {
			if !isIdentRune(r) {
				return false
			}
		}
	}
	return true
}
