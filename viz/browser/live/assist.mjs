// assist.mjs: open a notebook in a running JupyterLab with Debian's headless
// Chromium (playwright-core, as live.mjs) and check, as a student would see
// it, what the kernel answers while a cell is written:
//
//   status   the kernel shows "Idle" (not "Unknown") before any cell runs
//   result   the notebook's cells run; the last one (an expression) shows an
//            Out[N] result (execute_result)
//   tab      in a new cell, "dl." and Tab open the completer popup with
//            FromSlice in it, shown as a function (the kind comes from the
//            kernel's _jupyter_types_experimental)
//   shifttab in a new cell, "%%", Enter, "dl.MatMulWith(" and Shift+Tab open
//            the tooltip with the function's signature and doc comment
//
// node assist.mjs --modules DIR --url URL [--chromium /usr/bin/chromium]
//   [--timeout-ms 300000] [--screenshots DIR] [--steps 1]
// DIR holds node_modules/playwright-core (install.sh DIR). Every wait polls
// the page, within --timeout-ms for the whole run (30 s at most for the
// popup and the tooltip). Prints a JSON report; exits 1, with a screenshot
// of the page (live-jupyterlab-assist-<check>.png), when a check fails. With
// --steps 1 the screenshots of the popup and the tooltip are saved even
// when every check passes.
import { createRequire } from 'node:module';
import path from 'node:path';
import fs from 'node:fs';

const opt = { chromium: '/usr/bin/chromium', 'timeout-ms': 300000, screenshots: '', steps: '' };
const argv = process.argv.slice(2);
for (let i = 0; i < argv.length; i += 2) opt[argv[i].replace(/^--/, '')] = argv[i + 1];
for (const k of ['modules', 'url']) if (!opt[k]) { console.error(`assist.mjs: --${k} is required`); process.exit(2); }
const deadline = Date.now() + +opt['timeout-ms']; // for the whole run, so that the report and screenshot come back
const left = () => Math.max(1000, deadline - Date.now());
const assist = () => Math.min(30000, left()); // Tab and Shift+Tab: the kernel answers in milliseconds
const wantResult = '[2 2]'; // the last cell of testdata/assist.ipynb: x.Shape() of dl.Ones(2, 2)
const { chromium } = createRequire(path.join(path.resolve(opt.modules), 'package.json'))('playwright-core');

const report = { url: opt.url.replace(/token=[^&]+/, 'token=…'), steps: {}, pageErrors: [], problems: [], screenshots: [] };
const browser = await chromium.launch({ executablePath: opt.chromium, headless: true, args: ['--no-sandbox', '--disable-gpu'] });
const page = await browser.newPage({ viewport: { width: 1280, height: 1000 } });
page.on('pageerror', e => report.pageErrors.push(String(e)));
const t0 = Date.now();
const seconds = () => (Date.now() - t0) / 1000;

// step runs one check and records what it saw and how long it took. A
// failure is recorded with JupyterLab's kernel status and a screenshot of
// the page (live-jupyterlab-assist-<name>.png); when later checks need this
// one (needed), it ends the run.
class Stop extends Error {}
async function step(name, fn, { needed = false } = {}) {
  const start = seconds();
  try {
    report.steps[name] = (await fn()) || {};
  } catch (e) {
    report.problems.push(`${name}: ${String(e.message || e).split('\n')[0]}`);
    report.steps[name] = { failed: true, status: await kernelStatus().catch(() => null) };
    await shot(`live-jupyterlab-assist-${name}.png`, { failure: true });
    if (needed) throw new Stop(name);
  } finally {
    report.steps[name].seconds = +(seconds() - start).toFixed(1);
  }
}

// shot saves a screenshot into --screenshots: always for a failure (the
// whole page), and for a passing step only with --steps 1.
async function shot(name, { failure = false } = {}) {
  if (!opt.screenshots || !(failure || opt.steps)) return;
  fs.mkdirSync(opt.screenshots, { recursive: true });
  const file = path.join(opt.screenshots, name);
  await page.screenshot({ path: file, fullPage: failure }).catch(() => {});
  report.screenshots.push(file);
}

// newCell adds a code cell at the end of the notebook and puts the cursor in
// its editor, as a click on it would; watchAssist's record starts anew.
async function newCell() {
  await page.evaluate(async () => {
    window.__assist = [];
    const app = window.jupyterapp;
    const nb = app.shell.currentWidget.content;
    nb.activeCellIndex = nb.widgets.length - 1;
    await app.commands.execute('notebook:insert-cell-below');
  });
  await page.locator('.jp-NotebookPanel:not(.lm-mod-hidden) .jp-Cell.jp-mod-active .cm-content').click();
  await page.waitForFunction(() => document.activeElement && document.activeElement.matches('.jp-Cell.jp-mod-active .cm-content'), null, { timeout: assist() });
}

// kernelStatus is what JupyterLab shows of the kernel: its model's status,
// the status bar's text and the notebook toolbar's indicator.
async function kernelStatus() {
  return page.evaluate(() => {
    const w = window.jupyterapp.shell.currentWidget;
    const bar = document.querySelector('#jp-main-statusbar');
    const toolbar = document.querySelector('.jp-NotebookPanel:not(.lm-mod-hidden) .jp-Notebook-ExecutionIndicator');
    return {
      kernel: w.sessionContext.session.kernel.status,
      statusBar: bar ? (bar.innerText.split('\n').find(l => l.includes('|')) || '') : null,
      toolbar: toolbar ? toolbar.dataset.status : null,
    };
  });
}

// watchAssist records the kernel's messages for Tab and Shift+Tab in
// window.__assist: JupyterLab's requestComplete and requestInspect resolve
// only when both the reply and an "idle" status for the request have come
// (the messaging spec has the kernel publish busy/idle for every request).
async function watchAssist() {
  await page.evaluate(() => {
    window.__assist = [];
    const k = window.jupyterapp.shell.currentWidget.sessionContext.session.kernel;
    k.anyMessage.connect((_, { msg, direction }) => {
      const type = msg.header.msg_type, parent = (msg.parent_header || {}).msg_type;
      if (/^(complete|inspect)_/.test(type)) {
        const c = msg.content || {};
        const got = type === 'complete_reply' ? ` (${(c.matches || []).length} matches)` : type === 'inspect_reply' ? ` (found: ${c.found})` : '';
        window.__assist.push(`${direction} ${type}${got}`);
      } else if (type === 'status' && /^(complete|inspect)_request$/.test(parent)) {
        window.__assist.push(`${direction} status ${msg.content.execution_state} for ${parent}`);
      }
    });
  });
}

// noAnswer explains a popup or tooltip that did not open from the messages
// watchAssist saw for request ("complete_request", "inspect_request").
async function noAnswer(what, request, e) {
  const seen = await page.evaluate(() => window.__assist);
  const reply = request.replace('_request', '_reply');
  let why = '';
  if (seen.some(m => m.startsWith('recv ' + reply)) && !seen.includes(`recv status idle for ${request}`))
    why = ` (the kernel sent ${reply} but no "idle" status for the ${request}, and JupyterLab waits for both)`;
  return new Error(`${what}${why}; messages: ${seen.join(', ')}; ${String(e).split('\n')[0]}`);
}

try {
  await step('open', async () => {
    await page.goto(opt.url);
    // JupyterLab started with --LabApp.expose_app_in_browser=True exposes window.jupyterapp.
    await page.waitForFunction(() => {
      const w = window.jupyterapp && window.jupyterapp.shell.currentWidget;
      const k = w && w.sessionContext && w.sessionContext.session && w.sessionContext.session.kernel;
      return k && k.connectionStatus === 'connected' && w.content && w.content.widgets && w.content.widgets.length > 0;
    }, null, { timeout: left() });
    await watchAssist();
    return { kernel: await page.evaluate(() => window.jupyterapp.shell.currentWidget.sessionContext.kernelDisplayName) };
  }, { needed: true });

  await step('status', async () => {
    // The kernel announces "idle" once its session is ready (JupyterLab
    // ignores the status of its own kernel_info_request); the status bar
    // then reads "<kernel> | Idle". The wait leaves time for the cells.
    const first = await kernelStatus();
    await page.waitForFunction(() => {
      const k = window.jupyterapp.shell.currentWidget.sessionContext.session.kernel;
      const bar = document.querySelector('#jp-main-statusbar');
      return k.status === 'idle' && bar && /\|\s*Idle\b/.test(bar.innerText);
    }, null, { timeout: Math.min(240000, left()) });
    return { first, ready: await kernelStatus() };
  });

  await step('result', async () => {
    await page.evaluate(() => window.jupyterapp.commands.execute('notebook:run-all-cells'));
    await page.waitForFunction(() => {
      const cells = [...document.querySelectorAll('.jp-NotebookPanel:not(.lm-mod-hidden) .jp-CodeCell')];
      return cells.length > 0 && cells.every(c => /\[\d+\]/.test((c.querySelector('.jp-InputPrompt') || {}).textContent || '')) &&
        window.jupyterapp.shell.currentWidget.sessionContext.session.kernel.status === 'idle';
    }, null, { timeout: left() });
    const cells = await page.evaluate(() => [...document.querySelectorAll('.jp-NotebookPanel:not(.lm-mod-hidden) .jp-CodeCell')].map(c => ({
      input: c.querySelector('.jp-InputArea-editor').innerText,
      prompt: (c.querySelector('.jp-InputPrompt') || {}).textContent,
      results: [...c.querySelectorAll('.jp-OutputArea-executeResult')].map(o => ({
        prompt: (o.querySelector('.jp-OutputPrompt') || {}).textContent,
        text: o.querySelector('.jp-OutputArea-output').innerText,
      })),
      errors: [...c.querySelectorAll('.jp-OutputArea-output[data-mime-type="application/vnd.jupyter.stderr"], .jp-RenderedText[data-mime-type="application/vnd.jupyter.error"]')]
        .map(e => e.textContent.slice(0, 300)),
    })));
    const last = cells[cells.length - 1];
    if (cells.some(c => c.errors.length)) throw new Error('cell errors: ' + cells.flatMap(c => c.errors).join(' | '));
    // JupyterLab 4 writes Out[N] as "[N]:" beside an execute_result (a
    // stream or display has an empty prompt); N is the cell's own count.
    const want = last.prompt.trim(); // "[N]:"
    if (last.results.length !== 1 || last.results[0].prompt.trim() !== want || last.results[0].text.trim() !== wantResult)
      throw new Error(`last cell ${JSON.stringify(last.input)}: want one result ${want} ${wantResult}, got ${JSON.stringify(last.results)}`);
    return { cells };
  }, { needed: true }); // Tab after "dl." needs the import of the first cell

  await step('tab', async () => {
    await newCell();
    await page.keyboard.type('dl.'); // no "%%": a cell of statements runs, and completes, as a body
    await page.keyboard.press('Tab');
    const popup = '.jp-Completer:not(.lm-mod-hidden)';
    await page.waitForFunction(sel => [...document.querySelectorAll(sel + ' .jp-Completer-item')]
      .some(i => i.querySelector('.jp-Completer-match').textContent === 'FromSlice'), popup, { timeout: assist() })
      .catch(async e => { throw await noAnswer('Tab after "dl." opened no completer with FromSlice', 'complete_request', e); });
    const items = await page.locator(popup + ' .jp-Completer-item').count();
    await shot('assist-completer-list.png');
    // Narrow the list as a student would, so that FromSlice is in view.
    await page.keyboard.type('From');
    await page.waitForFunction(sel => {
      const items = [...document.querySelectorAll(sel + ' .jp-Completer-item')];
      return items.length > 0 && items.every(i => i.querySelector('.jp-Completer-match').textContent.startsWith('From'));
    }, popup, { timeout: assist() });
    const fromSlice = await page.evaluate(sel => {
      const item = [...document.querySelectorAll(sel + ' .jp-Completer-item')].find(i => i.querySelector('.jp-Completer-match').textContent === 'FromSlice');
      if (!item) return null;
      const text = q => { const e = item.querySelector(q); return e ? e.textContent.trim() : ''; };
      return { type: text('.jp-Completer-type'), typeExtended: text('.jp-Completer-typeExtended'), title: item.title };
    }, popup);
    await shot('assist-completer.png');
    if (!fromSlice) throw new Error('FromSlice left the list after typing "From"');
    if (fromSlice.typeExtended !== 'function') throw new Error(`FromSlice shown with kind ${JSON.stringify(fromSlice.typeExtended)}; want "function"`);
    await page.keyboard.press('Escape');
    await page.waitForSelector(popup, { state: 'detached', timeout: assist() });
    return { items, fromSlice };
  });

  await step('shifttab', async () => {
    await newCell();
    await page.keyboard.type('%%');
    await page.keyboard.press('Enter');
    await page.keyboard.type('dl.MatMulWith('); // as a call is begun: the cursor after the bracket
    await page.keyboard.press('Shift+Tab');
    await page.waitForFunction(() => {
      const t = document.querySelector('.jp-Tooltip');
      return t && /func dl\.MatMulWith\(/.test(t.innerText) && /MatMulWith is MatMul/.test(t.innerText);
    }, null, { timeout: assist() })
      .catch(async e => { throw await noAnswer('Shift+Tab on "dl.MatMulWith(" opened no tooltip with its signature and doc', 'inspect_request', e); });
    const tooltip = await page.evaluate(() => document.querySelector('.jp-Tooltip').innerText);
    await shot('assist-tooltip.png');
    return { tooltip: tooltip.slice(0, 400) };
  });
} catch (e) {
  if (!(e instanceof Stop)) report.problems.push(String(e).split('\n')[0]);
}
report.seconds = +seconds().toFixed(1);
await browser.close();
console.log(JSON.stringify(report, null, 1));
process.exit(report.problems.length ? 1 : 0);
