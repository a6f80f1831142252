// Browser-free check of viz fragments: runs every <script> of an HTML file in
// a sandbox with stubs for the DOM and (optionally) the ECharts library, then
// prints what happened as JSON.
//
// usage: node nodecheck.js FILE.html MODE
//   MODE "stub":    window.echarts is a stub that records init/setOption
//   MODE "none":    no library; the fake clock runs past the 5 s warning
//                   ("early" holds the elements as the scripts left them)
//   MODE "real":    FILE's scripts run with define/require like require.js
//                   (the loader fragment must still define window.echarts)
const fs = require('fs');
const vm = require('vm');
const [file, mode] = process.argv.slice(2);
const html = fs.readFileSync(file, 'utf8');
const scripts = [...html.matchAll(/<script type="text\/javascript">([\s\S]*?)<\/script>/g)].map(m => m[1]);
const markup = html.replace(/<script[\s\S]*?<\/script>/g, '');
const ids = [...markup.matchAll(/id="([^"]+)"/g)].map(m => m[1]);

const elements = {};
for (const id of ids) {
  elements[id] = { id, innerHTML: '', textContent: '', style: {}, attrs: {}, clientWidth: 800,
    setAttribute(k, v) { this.attrs[k] = String(v); } };
}
let now = 0;
const timers = [];
const charts = {};
const stub = mode !== 'stub' ? undefined : {
    version: '5.6.0',
    getInstanceByDom: el => charts[el.id] || null,
    init: (el, theme, opts) => {
      const c = { theme, opts, options: [], setOption(o) { this.options.push(o); }, resize() {} };
      charts[el.id] = c;
      return c;
    },
};
const amdDefined = {};
const ctx = {
  console, echarts: stub,
  document: { getElementById: id => elements[id] || null, documentElement: { style: {} },
    createElement: () => ({ style: {}, getContext: () => null }) },
  navigator: { userAgent: 'node' },
  Date: Object.assign(function (...a) { return new Date(...a); }, { now: () => now, UTC: Date.UTC, parse: Date.parse }),
  setTimeout: (f, ms) => { timers.push({ at: now + ms, f }); },
};
// In a browser, window is the global object.
ctx.window = ctx;
ctx.self = ctx;
const window = ctx;
if (mode === 'real') {
  // require.js shape: an AMD define that throws on anonymous modules.
  window.define = function (name, deps, factory) {
    if (typeof name !== 'string') throw new Error('Mismatched anonymous define() module');
    amdDefined[name] = factory();
  };
  window.define.amd = {};
  window.require = { defined: n => n in amdDefined };
}
vm.createContext(ctx);
const errors = [];
for (const js of scripts) {
  try { vm.runInContext(js, ctx); } catch (e) { errors.push(String(e)); }
}
// What the elements show once the scripts ran, before any timer: a chart
// whose script ran must no longer show its static (no-JavaScript) text.
const early = {};
for (const id of ids) early[id] = { state: elements[id].attrs['data-viz-state'] || null, html: elements[id].innerHTML };
// Run timers on a fake clock for 7 simulated seconds.
while (timers.length && now < 7000) {
  timers.sort((a, b) => a.at - b.at);
  const t = timers.shift();
  now = Math.max(now, t.at);
  try { t.f(); } catch (e) { errors.push(String(e)); }
}
function functions(o, path, out) {
  if (typeof o === 'function') out.push(path);
  else if (o && typeof o === 'object') for (const k in o) functions(o[k], path + '.' + k, out);
  return out;
}
const out = { errors, elements: {}, early, charts: {}, amd: Object.keys(amdDefined),
  echartsVersion: window.echarts ? window.echarts.version : null };
for (const id of ids) out.elements[id] = { state: elements[id].attrs['data-viz-state'] || null,
  text: elements[id].textContent, html: elements[id].innerHTML };
for (const id in charts) {
  const o = charts[id].options[charts[id].options.length - 1];
  const calls = {};
  for (const p of functions(o, 'option', [])) {
    // Call each function with a sample argument to prove it is code that runs.
    const f = p.split('.').slice(1).reduce((a, k) => a[k], o);
    const sample = { value: [2020, 1.5e9], name: 'n', seriesName: 's', data: { value: [2020, 1.5e9], note: 'x' }, marker: '' };
    try { calls[p] = String(f(sample)); } catch (e) { calls[p] = 'throws: ' + e; }
  }
  out.charts[id] = { theme: charts[id].theme, renderer: charts[id].opts.renderer,
    series: (o.series || []).map(s => s.type), calls, option: o };
}
process.stdout.write(JSON.stringify(out, (k, v) => typeof v === 'function' ? 'function:' + v.toString() : v));
