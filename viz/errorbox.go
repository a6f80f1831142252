package viz

import "fmt"

// errorBox is the HTML shown in a cell when viz cannot do its job: a Spanish
// explanation for the student and the technical error.
func errorBox(msg string, err error) string {
	return fmt.Sprintf(`<div class="viz-error" style="font:13px sans-serif;color:#b00;padding:8px;border:1px solid #e99">%s<br><code>%s</code></div>`,
		htmlText(msg), htmlText(err.Error()))
}

// errorf is fmt.Errorf (chart builders panic with it on misuse).
var errorf = fmt.Errorf
