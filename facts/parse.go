package facts

import (
	"regexp"
	"strconv"
	"strings"
)

const numPattern = `[0-9][0-9,]*(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?`

var rangeRE = regexp.MustCompile(`^\s*(?:~|≈|>=|<=|>|<|up to|about)?\s*(` + numPattern + `)(?:\s*[-–]\s*(` + numPattern + `))?`)

// ParseRange reads the number or range at the start of a cell worded as in
// the dataset: "3.4" gives (3.4, 3.4), "4-5" and "5.2-6.0 (derived)" give the
// two bounds, "~4", ">2" and "up to 9" give the number twice (the qualifier is
// dropped: read the cell for it), and "1,720,320" drops the commas. Text after
// the number (a unit, "(derived)", a second clause after ";") is ignored. ok
// is false when the cell does not start with a number.
func ParseRange(s string) (lo, hi float64, ok bool) {
	m := rangeRE.FindStringSubmatch(s)
	if m == nil {
		return 0, 0, false
	}
	lo, err := strconv.ParseFloat(strings.ReplaceAll(m[1], ",", ""), 64)
	if err != nil {
		return 0, 0, false
	}
	hi = lo
	if m[2] != "" {
		if hi, err = strconv.ParseFloat(strings.ReplaceAll(m[2], ",", ""), 64); err != nil {
			return 0, 0, false
		}
	}
	return lo, hi, true
}

var yearRE = regexp.MustCompile(`^\s*~?\s*((?:19|20)[0-9]{2})(?:-([0-9]{2,4}))?`)

// ParseYear reads a year cell of the long-format files as a fractional year:
// "2019" is 2019, "2008-10" (year-month) is 2008.75, "2006-01-28" is 2006.0,
// a range "2022-2023" or "2019-2025" gives its first year, and "~2019" is 2019.
// ok is false for wordings without a year ("late 2020s", "2010s").
func ParseYear(s string) (year float64, ok bool) {
	s = strings.TrimSpace(s)
	m := yearRE.FindStringSubmatch(s)
	if m == nil || strings.HasPrefix(s[len(m[0]):], "s") { // "2010s" is a decade
		return 0, false
	}
	y, _ := strconv.Atoi(m[1])
	year = float64(y)
	if len(m[2]) == 2 {
		if mo, _ := strconv.Atoi(m[2]); mo >= 1 && mo <= 12 {
			year += float64(mo-1) / 12
		}
	}
	return year, true
}
