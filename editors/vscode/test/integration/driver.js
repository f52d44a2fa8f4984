// Drives real VS Code (code-server's web workbench) in headless Chromium:
// opens the fixture folder with the `payload` URL parameter so that VS Code
// loads editors/vscode as extensionDevelopmentPath and runs suite.js in the
// node extension host, then waits for window.codeAutomationExit(code).
// Needs code-server started with --vscode-option enable-smoke-test-driver.
//
//   node driver.js <code-server URL> <workspace dir> <extension dir> <tests module> <artifacts dir>
'use strict';

const { chromium } = require('playwright-core');
const path = require('node:path');

const [csUrl, ws, extDir, tests, artifacts] = process.argv.slice(2);
const TIMEOUT_MS = Number(process.env.CLEW_VSCODE_TIMEOUT_MS || 180000);

(async () => {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  let code = 1;
  const consoleLines = [];
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  try {
    page.on('console', (m) => {
      const text = m.text();
      consoleLines.push(`[${m.type()}] ${text}`);
      if (text.includes('clew-vscode-real:')) console.log(text.slice(text.indexOf('clew-vscode-real:')));
    });
    page.on('pageerror', (e) => consoleLines.push(`[pageerror] ${e.message}`));
    const done = new Promise((resolve) => page.exposeFunction('codeAutomationExit', (c) => resolve(c)));
    const remote = (p) => `vscode-remote://${new URL(csUrl).host}${p}`;
    const payload = [['extensionDevelopmentPath', remote(extDir)], ['extensionTestsPath', remote(tests)]];
    await page.goto(`${csUrl}/?folder=${encodeURIComponent(ws)}&payload=${encodeURIComponent(JSON.stringify(payload))}`);
    let timer;
    const timeout = new Promise((resolve) => { timer = setTimeout(() => resolve('timeout'), TIMEOUT_MS); });
    const got = await Promise.race([done, timeout]);
    clearTimeout(timer);
    if (got === 'timeout') {
      console.error(`driver: VS Code did not call codeAutomationExit within ${TIMEOUT_MS} ms`);
    } else {
      code = got;
    }
    if (code !== 0) {
      await page.screenshot({ path: path.join(artifacts, 'failure.png') }).catch(() => {});
    }
  } catch (err) {
    console.error(`driver: ${err && err.stack ? err.stack : err}`);
  } finally {
    require('node:fs').writeFileSync(path.join(artifacts, 'browser-console.log'), consoleLines.join('\n') + '\n');
    await browser.close().catch(() => {});
  }
  process.exit(code === 0 ? 0 : 1);
})();
