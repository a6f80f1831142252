package viz

import (
	"github.com/go-echarts/go-echarts/v2/types"
)

// jsHelpers defines, inside each formatter function, the helpers it uses:
// esc (HTML escaping of data shown in a tooltip) and num (compact numbers:
// 1.5·10⁹ for large and tiny values, up to 4 significant digits otherwise).
const jsHelpers = `
  function esc(s) { return String(s).replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;"); }
  function sup(e) { var d = "⁰¹²³⁴⁵⁶⁷⁸⁹", s = ""; e = String(e); for (var i = 0; i < e.length; i++) { s += e[i] === "-" ? "⁻" : d[+e[i]]; } return s; }
  function num(v) {
    if (typeof v !== "number" || !isFinite(v)) { return esc(v); }
    var a = Math.abs(v);
    if (v !== 0 && (a >= 1e5 || a < 1e-3)) {
      var e = Math.floor(Math.log10(a) + 1e-9), m = +(v / Math.pow(10, e)).toPrecision(3);
      if (Math.abs(m) >= 10) { m = +(m / 10).toPrecision(3); e += 1; }
      return (m === 1 ? "" : m === -1 ? "-" : m + "·") + "10" + sup(e);
    }
    return String(+v.toPrecision(4));
  }
  function year(v) { var y = Math.floor(v + 1e-9), m = Math.round((v - y) * 12); return m ? y + "-" + (m < 9 ? "0" : "") + (m + 1) : String(y); }
`

// axisFormatter formats axis labels: "num" (compact numbers) or "year".
func axisFormatter(kind string) types.FuncStr {
	if kind == "year" {
		return JS(`function (v) { return String(v); }`)
	}
	// On a log axis the ticks are powers of ten: write all of them as 10ⁿ once they
	// reach 10³ (or fall below 10⁻²), so one axis never mixes "10000" with "10⁵".
	return JS(`function (v) {` + jsHelpers + `  var e = Math.round(Math.log10(Math.abs(v)));
  if (v > 0 && (e >= 3 || e <= -2) && Math.abs(v - Math.pow(10, e)) <= 1e-9 * v) { return "10" + sup(e); }
  return num(v); }`)
}

// itemTooltip formats an item's tooltip: series, point name, x and y with
// their axis names, and the point's note (status, caveats).
func itemTooltip(xName, yName, xKind string) types.FuncStr {
	xn, yn := jsonString(xName), jsonString(yName)
	fx := "num"
	if xKind == "year" {
		fx = "year"
	}
	return JS(`function (p) {` + jsHelpers + `
  var d = p.data || {}, v = d.value !== undefined ? d.value : p.value;
  var s = "<b>" + esc(p.seriesName) + "</b>";
  if (p.name) { s += "<br>" + esc(p.name); }
  if (Array.isArray(v)) {
    s += "<br>" + esc(` + xn + `) + ": " + (typeof v[0] === "number" ? ` + fx + `(v[0]) : esc(v[0]));
    s += "<br>" + esc(` + yn + `) + ": " + (typeof v[1] === "number" ? num(v[1]) : esc(v[1]));
  } else {
    s += "<br>" + esc(` + yn + `) + ": " + num(v);
  }
  if (d.note) { s += "<br><i>" + esc(d.note) + "</i>"; }
  return s;
}`)
}

// nameTooltip shows the item's name in bold, its series and its note.
func nameTooltip() types.FuncStr {
	return JS(`function (p) {` + jsHelpers + `
  var d = p.data || {};
  return "<b>" + esc(p.name) + "</b><br>" + esc(p.seriesName) + (d.note ? "<br><i>" + esc(d.note) + "</i>" : "");
}`)
}

// barTooltip shows a bar's name, value with unit, and note.
func barTooltip(unit string) types.FuncStr {
	return JS(`function (p) {` + jsHelpers + `
  var d = p.data || {}, v = d.value !== undefined ? d.value : p.value;
  return "<b>" + esc(p.name) + "</b><br>" + (p.seriesName && p.seriesName !== p.name ? esc(p.seriesName) + ": " : "") + num(v) + " " + esc(` + jsonString(unit) + `) + (d.note ? "<br><i>" + esc(d.note) + "</i>" : "");
}`)
}
