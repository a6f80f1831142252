// live.mjs: open a notebook in a running JupyterLab with Debian's headless
// Chromium (playwright-core, no downloaded browser), run all its cells on its
// kernel, and check that viz output appears live: charts drawn, progress bars
// seen while running and finished at the end, no cell error.
//
// node live.mjs --modules DIR --url URL [--chromium /usr/bin/chromium]
//   [--charts N] [--progress N] [--timeout-ms 300000] [--screenshots DIR]
// DIR holds node_modules/playwright-core (install.sh DIR). Prints a JSON
// report; exits 1 (with a screenshot) when a check fails.
import { createRequire } from 'node:module';
import path from 'node:path';
import fs from 'node:fs';

const opt = { chromium: '/usr/bin/chromium', charts: 1, progress: 1, 'timeout-ms': 300000, screenshots: '' };
const argv = process.argv.slice(2);
for (let i = 0; i < argv.length; i += 2) opt[argv[i].replace(/^--/, '')] = argv[i + 1];
for (const k of ['modules', 'url']) if (!opt[k]) { console.error(`live.mjs: --${k} is required`); process.exit(2); }
const timeout = +opt['timeout-ms'];
const { chromium } = createRequire(path.join(path.resolve(opt.modules), 'package.json'))('playwright-core');

const report = { url: opt.url.replace(/token=[^&]+/, 'token=…'), pageErrors: [], problems: [] };
const browser = await chromium.launch({ executablePath: opt.chromium, headless: true, args: ['--no-sandbox', '--disable-gpu'] });
const page = await browser.newPage({ viewport: { width: 1280, height: 1000 } });
page.on('pageerror', e => report.pageErrors.push(String(e)));
try {
  await page.goto(opt.url);
  // JupyterLab started with --LabApp.expose_app_in_browser=True exposes window.jupyterapp.
  // The kernel is ready when its websocket is connected. (GoNB's kernel may
  // report status "unknown" until it first runs a cell, so status is not used.)
  await page.waitForFunction(() => {
    const w = window.jupyterapp && window.jupyterapp.shell.currentWidget;
    const k = w && w.sessionContext && w.sessionContext.session && w.sessionContext.session.kernel;
    return k && k.connectionStatus === 'connected' && w.content && w.content.widgets && w.content.widgets.length > 0;
  }, null, { timeout });
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
