// Drives real VS Code (code-server's web workbench) in headless Chromium and
// checks what is on screen.
//
//   node driver.js suite <code-server URL> <workspace> <harness dir> <suite.js> <sync dir> <artifacts dir>
//     Opens the workspace with the `payload` URL parameter, so VS Code runs
//     suite.js in its node extension host (the harness is an empty
//     extensionDevelopmentPath; the extension under test is the installed
//     VSIX). suite.js asks for screen checks through <sync dir>; each is a
//     function below that reads the workbench's DOM (visible editor text,
//     status bar, notification toasts) and may save a screenshot for the
//     extension's README. Ends with suite.js (window.codeAutomationExit).
//     Needs code-server started with --vscode-option enable-smoke-test-driver.
//
//   node driver.js missing <code-server URL> <workspace> <artifacts dir>
//     The installed extension without its binary, none on PATH: exactly one
//     notification says so, with its three actions, and a command then says
//     the server is not available (not "command not found").
'use strict';

const { chromium } = require('playwright-core');
const fs = require('node:fs');
const path = require('node:path');

const TIMEOUT_MS = Number(process.env.CLEW_VSCODE_TIMEOUT_MS || 540000);
const WAIT = 60000;
const t0 = Date.now();
const say = (msg) => console.log(`driver: [${String(Date.now() - t0).padStart(6)} ms] ${msg}`);
const clean = (s) => String(s || '').replace(/\u00a0/g, ' ').replace(/\s+/g, ' ').trim();

async function launch() {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  // The clipboard for Copy anchor then paste (the workbench reads and
  // writes it through the browser).
  const context = await browser.newContext({ viewport: { width: 1280, height: 760 } });
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const page = await context.newPage();
  page.setDefaultTimeout(WAIT);
  page.setDefaultNavigationTimeout(180000); // 2 shared cores: the workbench may load slowly
  const consoleLines = [];
  page.on('console', (m) => {
    const text = m.text();
    consoleLines.push(`[${m.type()}] ${text}`);
    if (text.includes('clew-vscode-real:')) console.log(text.slice(text.indexOf('clew-vscode-real:')));
  });
  page.on('pageerror', (e) => consoleLines.push(`[pageerror] ${e.message}`));
  return { browser, page, consoleLines };
}

// toasts returns the text of every notification toast on screen.
async function toasts(page) {
  return (await page.locator('.notification-toast').allInnerTexts()).map(clean);
}

// shot saves a screenshot; with `around`, only the part of the window from
// that element's left and top (with some margin) to the bottom right
// corner, where VS Code shows toasts and the status bar: smaller files.
async function shot(page, artifacts, name, around) {
  await page.waitForTimeout(300); // let the last paint land
  let clip;
  if (around) {
    const box = await around.boundingBox();
    const vp = page.viewportSize();
    if (box) {
      const x = Math.max(0, Math.floor(box.x - 260));
      const y = Math.max(0, Math.floor(box.y - 140));
      clip = { x, y, width: vp.width - x, height: vp.height - y };
    }
  }
  await page.screenshot({ path: path.join(artifacts, name), clip });
  say(`screenshot ${name}`);
}

// editorText is the visible text of the editor showing a line with
// marker. Long lines wrap into several view lines, so a phrase is looked
// for in the whole text, not line by line.
async function editorText(page, marker) {
  const line = page.locator('.monaco-editor .view-line', { hasText: marker }).first();
  await line.waitFor({ state: 'visible', timeout: WAIT });
  const editor = page.locator('.monaco-editor', { has: page.locator('.view-line', { hasText: marker }) }).first();
  return clean(await editor.locator('.view-lines').first().innerText());
}

// The screen checks suite.js asks for, by name. Each returns what it saw.
const checks = {
  async lens(page, want, artifacts) {
    const lens = page.locator('.codelens-decoration', { hasText: want.text }).first();
    await lens.waitFor({ state: 'visible', timeout: WAIT });
    await shot(page, artifacts, 'lens-on-code.png');
    return `lens "${clean(await lens.innerText())}" visible`;
  },

  async status(page, want, artifacts) {
    const combined = page.locator('#status\\.languageStatus');
    await combined.waitFor({ state: 'visible', timeout: WAIT });
    const item = page.locator('.hover-language-status', { hasText: want.health });
    for (let i = 0; i < 5 && !(await item.isVisible()); i++) {
      await combined.hover();
      await item.waitFor({ state: 'visible', timeout: 4000 }).catch(() => {});
      if (!(await item.isVisible())) await combined.click();
      await item.waitFor({ state: 'visible', timeout: 4000 }).catch(() => {});
    }
    if (!(await item.isVisible())) throw new Error(`the language status hover shows no "${want.health}"`);
    const hover = clean(await page.locator('.hover-language-status').allInnerTexts().then((t) => t.join(' | ')));
    // Pin the health item: it then stands in the status bar itself.
    await item.locator('.codicon-pin').first().click();
    const pinned = page.locator('.statusbar-item', { hasText: want.health }).first();
    await pinned.waitFor({ state: 'visible', timeout: WAIT });
    await combined.hover();
    await item.waitFor({ state: 'visible', timeout: 5000 }).catch(() => {});
    await shot(page, artifacts, 'status.png', item);
    await page.mouse.move(1, 1);
    return `hover "${hover}"; status bar "${clean(await pinned.innerText())}"`;
  },

  async context(page, want, artifacts) {
    const tab = page.locator('.tab', { hasText: want.tab }).first();
    await tab.waitFor({ state: 'visible', timeout: WAIT });
    const line = page.locator('.monaco-editor .view-line', { hasText: want.seed }).first();
    await line.waitFor({ state: 'visible', timeout: WAIT });
    await shot(page, artifacts, 'dev-context.png');
    // Read-only: typing into it is refused, in words.
    await line.click();
    await page.keyboard.type('x');
    const refused = page.locator('.monaco-editor-overlaymessage', { hasText: 'read-only' }).first();
    await refused.waitFor({ state: 'visible', timeout: WAIT });
    return `tab "${clean(await tab.innerText())}", line "${clean(await line.innerText())}"; typing: "${clean(await refused.innerText())}"`;
  },

  async 'context-excluded'(page, want) {
    const text = await editorText(page, want.heading);
    const m = text.match(new RegExp(`[^|]*${want.entry.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}[^|]*\\|[^|]*\\|\\s*stale\\s*\\|`));
    if (!m) throw new Error(`the visible part of the context shows no excluded stale ${want.entry}: ${text.slice(0, 400)}`);
    return `"${want.heading}" then "${clean(m[0])}"`;
  },

  async 'explain-pick'(page, want, artifacts) {
    // The picker lists what the repository left out (stale passages) first,
    // then the selected entries; filtering on "excluded" (it matches
    // descriptions) keeps the stale passage at the top.
    const input = page.locator('.quick-input-widget input');
    await page.locator('.quick-input-widget .monaco-list-row', { hasText: 'Selected (' }).first().waitFor({ state: 'visible', timeout: WAIT });
    await input.fill('excluded');
    const row = page.locator('.quick-input-widget .monaco-list-row', { hasText: want.pick }).first();
    await row.waitFor({ state: 'visible', timeout: WAIT });
    const text = clean(await row.innerText());
    if (!text.includes(want.badge)) throw new Error(`the row for ${want.pick} says "${text}", not "${want.badge}"`);
    await page.screenshot({ path: path.join(artifacts, 'explain-pick.png'), clip: { x: 320, y: 0, width: 640, height: 380 } });
    await input.fill(want.pick);
    await page.waitForTimeout(200);
    await page.keyboard.press('Enter');
    return `picked "${text}"`;
  },

  async 'explain-doc'(page, want) {
    const text = await editorText(page, want.marker);
    if (!text.includes(want.text)) throw new Error(`the explanation on screen does not say "${want.text}": ${text.slice(0, 300)}`);
    return `"${text.slice(0, 120)}…"`;
  },

  // With the smoke-test driver on (needed for the payload) VS Code shows no
  // toasts; messages go to the notification center, opened here as a user
  // would, with the bell. The missing-binary case runs without it and
  // checks real toasts.
  async verify(page, want, artifacts) {
    const item = await centerItem(page, want.text);
    const text = clean(await item.innerText());
    await shot(page, artifacts, 'verify.png', page.locator('.notifications-center'));
    await item.locator('.monaco-button', { hasText: want.button }).click();
    const row = page.locator('.markers-panel .monaco-list-row', { hasText: 'stale' }).first();
    await row.waitFor({ state: 'visible', timeout: WAIT });
    await closeCenter(page);
    return `notification "${text}"; Problems shows "${clean(await row.innerText())}"`;
  },

  // The diff editor: the tab titled after the anchor, the reviewed line on
  // the left (marked removed), the current one on the right (marked added).
  async 'show-change'(page, want, artifacts) {
    const tab = page.locator('.tab', { hasText: want.tab }).first();
    await tab.waitFor({ state: 'visible', timeout: WAIT });
    const diff = page.locator('.monaco-diff-editor').first();
    await diff.waitFor({ state: 'visible', timeout: WAIT });
    const original = diff.locator('.editor.original');
    const modified = diff.locator('.editor.modified');
    await original.waitFor({ state: 'visible', timeout: WAIT }); // side by side, not inline
    await original.locator('.view-line', { hasText: want.before }).first().waitFor({ state: 'visible', timeout: WAIT });
    await modified.locator('.view-line', { hasText: want.after }).first().waitFor({ state: 'visible', timeout: WAIT });
    const left = clean(await original.locator('.view-lines').first().innerText());
    const right = clean(await modified.locator('.view-lines').first().innerText());
    if (left.includes(want.after)) throw new Error(`the reviewed side shows "${want.after}": ${left.slice(0, 300)}`);
    if (right.includes(want.before)) throw new Error(`the current side shows "${want.before}": ${right.slice(0, 300)}`);
    const removed = await original.locator('.line-delete, .char-delete').count();
    const added = await modified.locator('.line-insert, .char-insert').count();
    if (removed === 0 || added === 0) throw new Error(`the diff marks nothing (removed ${removed}, added ${added})`);
    await shot(page, artifacts, 'show-change.png');
    return `tab "${clean(await tab.innerText())}"; left has "${want.before}", right "${want.after}"; ${removed} removed / ${added} added marks`;
  },

  async 'hover-link'(page, want) {
    const link = page.locator('.monaco-hover a', { hasText: want.link }).first();
    await link.waitFor({ state: 'visible', timeout: WAIT });
    const hover = clean(await page.locator('.monaco-hover').first().innerText());
    await link.click();
    return `hover "${hover.slice(0, 160)}…"; clicked "${want.link}"`;
  },

  async 'not-held'(page, want) {
    const item = await centerItem(page, want.text);
    const text = clean(await item.innerText());
    if (/error/i.test(await item.locator('.codicon').first().getAttribute('class'))) throw new Error(`shown as an error: ${text}`);
    await closeCenter(page);
    return `notification "${text}"`;
  },

  // Paste: want.line is what VS Code's clipboard holds after Copy anchor
  // (suite.js reads it back with vscode.env.clipboard.readText). The line
  // holding want.replace is selected (click, End, Shift+Home) and the text
  // pasted over it as the browser pastes: a paste event carrying the text,
  // which the editor's input turns into the edit. (In headless Chromium
  // neither Ctrl+V, which runs VS Code's paste command and its
  // document.execCommand('paste'), nor the page's navigator.clipboard sees
  // what the workbench wrote.) The pasted anchor is then on screen.
  async paste(page, want) {
    const clip = want.line;
    // Select the line to replace as a user does: click at its end, Shift+Home.
    const old = page.locator('.monaco-editor .view-line', { hasText: want.replace }).first();
    await old.waitFor({ state: 'visible', timeout: WAIT });
    await old.click();
    await page.keyboard.press('End');
    await page.keyboard.press('Shift+Home');
    const target = await page.evaluate((text) => {
      const el = document.activeElement;
      const dt = new DataTransfer();
      dt.setData('text/plain', text);
      el.dispatchEvent(new ClipboardEvent('paste', { clipboardData: dt, bubbles: true, cancelable: true }));
      return `${el.tagName}.${el.className}`;
    }, clip);
    const line = page.locator('.monaco-editor .view-line', { hasText: want.line.slice(0, 60) }).first();
    await line.waitFor({ state: 'visible', timeout: WAIT }).catch((err) => {
      throw new Error(`${err.message.split('\n')[0]} (pasted into ${target})`);
    });
    return `"${clip.slice(0, 40)}…" pasted into ${target}; on screen: "${clean(await line.innerText()).slice(0, 100)}"`;
  },

  async confirm(page, want) {
    const item = await centerItem(page, want.text);
    const text = clean(await item.innerText());
    await closeCenter(page);
    return `notification "${text}"`;
  },
};

async function centerItem(page, text) {
  await openCenter(page);
  const center = page.locator('.notifications-center');
  const item = center.locator('.notification-list-item', { hasText: text }).first();
  await item.waitFor({ state: 'visible', timeout: WAIT });
  await page.mouse.move(1, 1); // the bell's tooltip would cover the item's buttons
  await page.waitForTimeout(800);
  return item;
}

// openCenter clicks the bell until the notification center shows: a click
// that lands while the bell's "New Notification" tooltip is appearing can
// be swallowed, and the center then never opens (seen once in CI).
async function openCenter(page) {
  const center = page.locator('.notifications-center');
  const deadline = Date.now() + WAIT;
  while (!(await center.isVisible())) {
    if (Date.now() > deadline) throw new Error('the notification center did not open: the bell was clicked until the wait ran out');
    await page.locator('#status\\.notifications').click();
    await center.waitFor({ state: 'visible', timeout: 3000 }).catch(() => {});
  }
}

async function closeCenter(page) {
  const center = page.locator('.notifications-center');
  if (await center.isVisible()) await page.locator('#status\\.notifications').click();
  await center.waitFor({ state: 'hidden', timeout: WAIT }).catch(() => {});
}

// serve answers suite.js's screen checks until it exits.
async function serve(page, sync, artifacts, done) {
  const handled = new Set();
  let finished = false;
  done.then(() => { finished = true; });
  while (!finished) {
    const wants = fs.readdirSync(sync).filter((f) => f.endsWith('.want') && !handled.has(f)).sort();
    for (const f of wants) {
      handled.add(f);
      const id = f.slice(0, -'.want'.length);
      const name = id.replace(/^\d+-/, '');
      const want = JSON.parse(fs.readFileSync(path.join(sync, f), 'utf8'));
      let answer;
      try {
        if (!checks[name]) throw new Error(`driver.js has no check "${name}"`);
        const saw = await checks[name](page, want, artifacts);
        say(`ok: ${name}: ${saw}`);
        answer = { ok: true, saw };
      } catch (err) {
        say(`FAIL: ${name}: ${err.message}`);
        await page.screenshot({ path: path.join(artifacts, `failure-${name}.png`) }).catch(() => {});
        answer = { ok: false, error: `${err.message.split('\n')[0]}; toasts: ${JSON.stringify(await toasts(page).catch(() => []))}` };
      }
      // Through a rename, as the suite writes its .want: the suite polls for
      // .done and must never read it half written.
      const done = path.join(sync, `${id}.done`);
      fs.writeFileSync(`${done}.tmp`, JSON.stringify(answer));
      fs.renameSync(`${done}.tmp`, done);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function runSuite([csUrl, ws, harness, tests, sync, artifacts]) {
  const { browser, page, consoleLines } = await launch();
  let code = 1;
  try {
    const done = new Promise((resolve) => page.exposeFunction('codeAutomationExit', (c) => resolve(c)));
    const remote = (p) => `vscode-remote://${new URL(csUrl).host}${p}`;
    const payload = [['extensionDevelopmentPath', remote(harness)], ['extensionTestsPath', remote(tests)]];
    await page.goto(`${csUrl}/?folder=${encodeURIComponent(ws)}&payload=${encodeURIComponent(JSON.stringify(payload))}`, { waitUntil: 'domcontentloaded' });
    const serving = serve(page, sync, artifacts, done);
    let timer;
    const timeout = new Promise((resolve) => { timer = setTimeout(() => resolve('timeout'), TIMEOUT_MS); });
    const got = await Promise.race([done, timeout]);
    clearTimeout(timer);
    if (got === 'timeout') console.error(`driver: VS Code did not call codeAutomationExit within ${TIMEOUT_MS} ms`);
    else code = got;
    await Promise.race([serving, new Promise((r) => setTimeout(r, 1000))]);
    if (code !== 0) await page.screenshot({ path: path.join(artifacts, 'failure.png') }).catch(() => {});
  } finally {
    fs.writeFileSync(path.join(artifacts, 'browser-console.log'), consoleLines.join('\n') + '\n');
    await browser.close().catch(() => {});
  }
  return code;
}

async function runMissing([csUrl, ws, artifacts]) {
  const { browser, page, consoleLines } = await launch();
  try {
    await page.goto(`${csUrl}/?folder=${encodeURIComponent(ws)}`, { waitUntil: 'domcontentloaded' });
    await page.locator('.monaco-workbench').waitFor({ timeout: WAIT });
    const missing = page.locator('.notification-toast', { hasText: 'clew-lsp was not found' });
    await missing.first().waitFor({ state: 'visible', timeout: WAIT });
    say('the missing-binary notification is on screen');
    await page.waitForTimeout(5000); // a second toast would come now
    const all = await toasts(page);
    const clew = all.filter((t) => /clew/i.test(t));
    if (clew.length !== 1) throw new Error(`want exactly one clew notification, got ${clew.length}: ${JSON.stringify(all)}`);
    if (/ENOENT|spawn/.test(clew[0])) throw new Error(`the notification is raw: ${clew[0]}`);
    for (const action of ['Locate binary…', 'Open install docs', 'Show output']) {
      if ((await missing.locator('.monaco-button', { hasText: action }).count()) !== 1) throw new Error(`no "${action}" action in: ${clew[0]}`);
    }
    say(`ok: one notification: "${clew[0]}"`);
    await shot(page, artifacts, 'missing-binary.png', missing.first());

    // A command now says the server is not available.
    await page.keyboard.press('Control+P');
    await page.locator('.quick-input-widget input').fill('resolve.go');
    await page.locator('.quick-input-widget .monaco-list-row', { hasText: 'resolve.go' }).first().waitFor({ timeout: WAIT });
    await page.keyboard.press('Enter');
    await page.locator('.tab', { hasText: 'resolve.go' }).first().waitFor({ timeout: WAIT });
    await page.locator('.monaco-editor .view-line').nth(3).click();
    await page.keyboard.press('F1');
    await page.locator('.quick-input-widget input').fill('>clew: Compile Dev Context at Cursor');
    await page.locator('.quick-input-widget .monaco-list-row', { hasText: 'Compile Dev Context at Cursor' }).first().waitFor({ timeout: WAIT });
    await page.keyboard.press('Enter');
    const answer = page.locator('.notification-toast', { hasText: 'the language server is not available' }).first();
    await answer.waitFor({ state: 'visible', timeout: WAIT });
    const after = await toasts(page);
    if (after.some((t) => /command .* not found/i.test(t))) throw new Error(`a command was not found: ${JSON.stringify(after)}`);
    say(`ok: the command says "${clean(await answer.innerText())}"`);
    return 0;
  } catch (err) {
    console.error(`driver: FAIL: ${err.message}`);
    await page.screenshot({ path: path.join(artifacts, 'failure-missing.png') }).catch(() => {});
    return 1;
  } finally {
    fs.writeFileSync(path.join(artifacts, 'browser-console-missing.log'), consoleLines.join('\n') + '\n');
    await browser.close().catch(() => {});
  }
}

const [mode, ...args] = process.argv.slice(2);
(mode === 'suite' ? runSuite(args) : mode === 'missing' ? runMissing(args) : Promise.reject(new Error(`unknown mode ${mode}`)))
  .then((code) => process.exit(code === 0 ? 0 : 1))
  .catch((err) => { console.error(`driver: ${err && err.stack ? err.stack : err}`); process.exit(1); });
