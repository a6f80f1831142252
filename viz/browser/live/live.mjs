// live.mjs: open a notebook in a running JupyterLab with Debian's headless
// Chromium (playwright-core, no downloaded browser), run all its cells on its
// kernel, and check that viz output appears live: charts drawn (the notebook
// need not call viz.Init), progress bars seen while running and finished at
// the end, no cell error, no chart ever showing the untrusted-notebook text
// (only right where the chart's script never runs), and a saved notebook
// model without the ECharts library. With --reload 1 it then saves, reloads
// the page (which loses the library), checks that the charts say so, runs
// the last chart cell again and checks that every chart draws.
//
// node live.mjs --modules DIR --url URL [--chromium /usr/bin/chromium]
//   [--charts N] [--progress N] [--timeout-ms 300000] [--screenshots DIR]
//   [--max-model-bytes 200000] [--reload 0|1]
// DIR holds node_modules/playwright-core (install.sh DIR). Prints a JSON
// report; exits 1 (with a screenshot) when a check fails.
import { createRequire } from 'node:module';
import path from 'node:path';
import fs from 'node:fs';

const opt = { chromium: '/usr/bin/chromium', charts: 1, progress: 1, 'timeout-ms': 300000, screenshots: '', 'max-model-bytes': 200000, reload: 0 };
const argv = process.argv.slice(2);
for (let i = 0; i < argv.length; i += 2) opt[argv[i].replace(/^--/, '')] = argv[i + 1];
for (const k of ['modules', 'url']) if (!opt[k]) { console.error(`live.mjs: --${k} is required`); process.exit(2); }
const timeout = +opt['timeout-ms'];
const { chromium } = createRequire(path.join(path.resolve(opt.modules), 'package.json'))('playwright-core');

const report = { url: opt.url.replace(/token=[^&]+/, 'token=…'), pageErrors: [], problems: [] };
const browser = await chromium.launch({ executablePath: opt.chromium, headless: true, args: ['--no-sandbox', '--disable-gpu'] });
const page = await browser.newPage({ viewport: { width: 1280, height: 1000 } });
page.on('pageerror', e => report.pageErrors.push(String(e)));
// The text a chart shows only where its script never runs (viz's msgNoJS),
// and a piece of the inlined library (viz's libraryScript).
const untrusted = 'no es de confianza';
const library = '(function (define, exports, module) {';

// ready waits until the notebook is open and its kernel connected.
// JupyterLab started with --LabApp.expose_app_in_browser=True exposes window.jupyterapp.
// The kernel is ready when its websocket is connected. (GoNB's kernel may
// report status "unknown" until it first runs a cell, so status is not used.)
async function ready() {
  await page.waitForFunction(() => {
    const w = window.jupyterapp && window.jupyterapp.shell.currentWidget;
    const k = w && w.sessionContext && w.sessionContext.session && w.sessionContext.session.kernel;
    return k && k.connectionStatus === 'connected' && w.content && w.content.widgets && w.content.widgets.length > 0;
  }, null, { timeout });
}

// watchCharts records, at every change of the page, the charts' states and
// whether one showed the untrusted-notebook text.
async function watchCharts() {
  await page.evaluate((untrusted) => {
    window.__vizStates = {};
    window.__vizUntrusted = [];
    const look = () => document.querySelectorAll('.viz-echarts').forEach(el => {
      window.__vizStates[el.getAttribute('data-viz-state')] = true;
      if (el.textContent.includes(untrusted) && !window.__vizUntrusted.includes(el.id)) window.__vizUntrusted.push(el.id);
    });
    look();
    new MutationObserver(look).observe(document.body, { subtree: true, childList: true, attributes: true, characterData: true });
  }, untrusted);
}

async function chartsSeen(phase) {
  const seen = await page.evaluate(() => ({ states: Object.keys(window.__vizStates).sort(), untrusted: window.__vizUntrusted }));
  report[phase + 'ChartStates'] = seen.states;
  if (seen.untrusted.length) report.problems.push(`${phase}: chart(s) ${seen.untrusted.join(', ')} showed the untrusted-notebook message although their script ran`);
}

try {
  await page.goto(opt.url);
  await ready();
  await watchCharts();
  report.kernelStatusAtStart = await page.evaluate(() => window.jupyterapp.shell.currentWidget.sessionContext.session.kernel.status);
  report.kernel = await page.evaluate(() => window.jupyterapp.shell.currentWidget.sessionContext.kernelDisplayName);
  // Record live progress bars (not yet finished) as they appear during the run.
  await page.evaluate(() => {
    window.__vizLive = 0;
    new MutationObserver(() => {
      window.__vizLive = Math.max(window.__vizLive, document.querySelectorAll('.viz-progress[data-viz-finished=false]').length);
    }).observe(document.body, { subtree: true, childList: true, attributes: true });
  });
  const t0 = Date.now();
  await page.evaluate(() => window.jupyterapp.commands.execute('notebook:run-all-cells'));
  await page.waitForFunction(({ charts, progress }) => {
    const w = window.jupyterapp.shell.currentWidget;
    const cells = [...document.querySelectorAll('.jp-CodeCell')];
    const done = cells.every(c => /\[\d+\]/.test((c.querySelector('.jp-InputPrompt') || {}).textContent || ''));
    return done && w.sessionContext.session.kernel.status !== 'busy' &&
      document.querySelectorAll('.viz-echarts[data-viz-state=drawn]').length >= charts &&
      document.querySelectorAll('.viz-progress[data-viz-finished=true]').length >= progress;
  }, { charts: +opt.charts, progress: +opt.progress }, { timeout });
  report.seconds = (Date.now() - t0) / 1000;
  Object.assign(report, await page.evaluate(() => ({
    chartsDrawn: document.querySelectorAll('.viz-echarts[data-viz-state=drawn] canvas').length,
    progressFinished: document.querySelectorAll('.viz-progress[data-viz-finished=true]').length,
    lossCurves: document.querySelectorAll('.viz-losscurve[data-viz-finished=true] polyline').length,
    liveProgressSeen: window.__vizLive,
    cellErrors: [...document.querySelectorAll('.jp-OutputArea-output[data-mime-type="application/vnd.jupyter.stderr"], .jp-RenderedText[data-mime-type="application/vnd.jupyter.error"]')]
      .map(e => e.textContent.slice(0, 300)).filter(t => /panic|error/i.test(t)),
  })));
  if (report.liveProgressSeen < 1) report.problems.push('no progress bar was seen while the cells ran');
  if (report.cellErrors.length) report.problems.push('cell errors: ' + report.cellErrors.join(' | '));
  await chartsSeen('run');
  // What the notebook saves: the library was sent to the page, then its
  // output replaced by a stub.
  const model = await page.evaluate(() => JSON.stringify(window.jupyterapp.shell.currentWidget.context.model.toJSON()));
  report.modelBytes = model.length;
  if (model.includes(library)) report.problems.push('the notebook model holds the ECharts library: it would be saved in the .ipynb');
  if (model.length > +opt['max-model-bytes']) report.problems.push(`the notebook model is ${model.length} bytes; want at most ${opt['max-model-bytes']}`);
  if (+opt.reload && !report.problems.length) {
    // A reloaded page has lost window.echarts: the saved charts must say
    // so (never the untrusted text: JupyterLab trusts what it saved), and
    // running one chart cell again must draw them all.
    await page.evaluate(() => window.jupyterapp.commands.execute('docmanager:save'));
    await page.reload();
    await ready();
    await watchCharts();
    await page.waitForFunction((charts) => document.querySelectorAll('.viz-echarts[data-viz-state=waiting]').length >= charts,
      +opt.charts, { timeout: 60000 }).catch(() => report.problems.push('after a reload: the charts do not say that the library is missing'));
    report.reloadTexts = await page.evaluate(() => [...document.querySelectorAll('.viz-echarts')].map(el => el.getAttribute('data-viz-state') + ': ' + el.textContent.slice(0, 100)));
    const rerun = await page.evaluate(() => {
      const nb = window.jupyterapp.shell.currentWidget.content;
      const i = nb.widgets.map(c => c.model.sharedModel.getSource()).findLastIndex(s => s.includes('viz.Show('));
      nb.activeCellIndex = i;
      return window.jupyterapp.commands.execute('notebook:run-cell').then(() => i);
    });
    report.reloadRerunCell = rerun;
    await page.waitForFunction((charts) => document.querySelectorAll('.viz-echarts[data-viz-state=drawn]').length >= charts &&
      window.jupyterapp.shell.currentWidget.sessionContext.session.kernel.status !== 'busy', +opt.charts, { timeout });
    report.reloadChartsDrawn = await page.evaluate(() => document.querySelectorAll('.viz-echarts[data-viz-state=drawn] canvas').length);
    // (A kernel that rebuilt its process for this cell, saying so here, would have sent the library anyway.)
    report.reloadRerunText = await page.evaluate((i) => [...window.jupyterapp.shell.currentWidget.content.widgets[i].node.querySelectorAll('.jp-RenderedText')]
      .map(e => e.textContent).join('').slice(0, 300), rerun);
    await chartsSeen('reload');
  }
} catch (e) {
  report.problems.push(String(e).split('\n')[0]);
}
if (report.problems.length && opt.screenshots) {
  fs.mkdirSync(opt.screenshots, { recursive: true });
  report.screenshot = path.join(opt.screenshots, 'live-jupyterlab.png');
  await page.screenshot({ path: report.screenshot, fullPage: true }).catch(() => {});
}
await browser.close();
console.log(JSON.stringify(report, null, 1));
process.exit(report.problems.length ? 1 : 0);
