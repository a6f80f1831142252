package viz

import (
	"encoding/json"
	"fmt"
	"html/template"
	"regexp"
	"strings"

	"github.com/go-echarts/go-echarts/v2/types"
)

// Chart is satisfied by every go-echarts v2 chart (*charts.Line, *charts.Bar,
// ...) and by *Figure. Validate copies the data set with SetXAxis into the
// option (it is defined per chart type); JSON is promoted from
// charts.BaseConfiguration.
type Chart interface {
	Validate()
	JSON() map[string]interface{}
}

// JS marks src as JavaScript code, for go-echarts options of type
// types.FuncStr (tooltip and axis-label formatters, renderItem, ...): the
// rendered option holds a real function, not a string. Unlike
// opts.FuncOpts, JS keeps line breaks, so // comments in src are safe.
// Functions made with opts.FuncOpts are also turned into code.
func JS(src string) types.FuncStr {
	return types.FuncStr(funcMarker + src + funcMarker)
}

// funcMarker is go-echarts' marker around function source in an option
// (opts.FuncOpts writes "__f__<code>__f__").
const funcMarker = "__f__"

// funcToken matches a JSON string holding a marked function.
var funcToken = regexp.MustCompile(`"__f__((?:[^"\\]|\\.)*?)__f__"`)

// OptionJS returns the chart's option as a JavaScript object literal that is
// safe inside a <script> element:
//   - strings are JSON with <, > and & escaped (\u003c...), so "</script>"
//     or "<!--" in data cannot end the script;
//   - marked functions (JS, opts.FuncOpts) become code, unchanged (escaping
//     "</" in code would break a regular expression like /</g); a function
//     whose source contains "</script" or "<!--" is an error (write
//     "<\/script>" or "<\!--" inside the string instead).
//
// It returns an error if the option cannot be encoded as JSON (a NaN or
// infinite number among the data: drop those points, or use nil for a gap).
func OptionJS(c Chart) (string, error) {
	c.Validate()
	raw, err := json.Marshal(c.JSON())
	if err != nil {
		return "", fmt.Errorf("viz: chart option is not valid JSON: %w (drop NaN/Inf points or use nil for gaps)", err)
	}
	if _, ok := c.(*Figure); ok {
		if raw, err = widenLogTicks(raw); err != nil {
			return "", fmt.Errorf("viz: re-encode chart option: %w", err)
		}
	}
	js := string(raw)
	var bad error
	js = funcToken.ReplaceAllStringFunc(js, func(tok string) string {
		var src string
		quoted := `"` + tok[len(`"`+funcMarker):len(tok)-len(funcMarker+`"`)] + `"`
		if err := json.Unmarshal([]byte(quoted), &src); err != nil {
			bad = fmt.Errorf("viz: cannot decode JavaScript function %s: %w", quoted, err)
			return tok
		}
		if unsafeInScript(src) {
			bad = fmt.Errorf("viz: JavaScript function contains \"</script\" or \"<!--\", which would end the <script> element; write \"<\\/script>\" or \"<\\!--\" in the string: %.80s", src)
			return tok
		}
		return "(" + src + ")"
	})
	if bad != nil {
		return "", bad
	}
	if strings.Contains(js, funcMarker) {
		return "", fmt.Errorf("viz: unconverted %s marker in chart option (a JS function nested in another string?)", funcMarker)
	}
	return js, nil
}

// unsafeInScript reports whether s would end or confuse a <script> element.
func unsafeInScript(s string) bool {
	l := strings.ToLower(s)
	return strings.Contains(l, "</script") || strings.Contains(s, "<!--")
}

// htmlText escapes s for HTML text and attribute values.
func htmlText(s string) string { return template.HTMLEscapeString(s) }
