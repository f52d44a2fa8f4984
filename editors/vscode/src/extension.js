// The clew VS Code extension: a client of the clew-lsp language server.
// It finds the binary (setting, bundled, PATH, Go's bin directory), starts
// it in workspaces that use clew, shows the server's state and the
// workspace's health in a language status item, and turns the answers of
// the server's commands into documents, pickers and messages. All analysis
// lives in the server, so Neovim and VS Code behave the same.
'use strict';

const vscode = require('vscode');
const { createClient, SELECTOR } = require('./client');
const { resolveServer } = require('./serverPath');
const { createTraceChannel } = require('./traceChannel');
const { AnswerDocuments, SCHEME } = require('./documents');
const { ReviewedDocuments, SCHEME: REVIEWED_SCHEME } = require('./reviewed');
const { StatusItems } = require('./status');
const commands = require('./commands');

const INSTALL_DOCS = 'https://github.com/clew-lsp/clew-lsp#install';
const ANCHOR = /<!--\s*@(code|anchor)\b/;

// hasAnchors looks for an anchor comment in the workspace's Markdown (at
// most 500 files), so a project that writes anchors without any config file
// still gets the server.
async function hasAnchors() {
  const docs = await vscode.workspace.findFiles('**/*.{md,mdx,markdown}', '{**/node_modules/**,**/vendor/**,**/third_party/**}', 500);
  for (const uri of docs) {
    try {
      const text = Buffer.from(await vscode.workspace.fs.readFile(uri)).toString('utf8');
      if (ANCHOR.test(text)) return true;
    } catch (_) {
      // unreadable: skip
    }
  }
  return false;
}

async function hasProjectConfig() {
  const found = await vscode.workspace.findFiles('{.clew.yml,.multivac/config.yml}', '**/node_modules/**', 1);
  return found.length > 0;
}

class Controller {
  constructor(context) {
    this.context = context;
    this.output = vscode.window.createOutputChannel('clew', { log: true });
    this.trace = createTraceChannel();
    this.docs = new AnswerDocuments();
    this.reviewed = new ReviewedDocuments();
    this.status = new StatusItems(SELECTOR);
    this.client = null;
    this.server = null; // {path, source} once resolved
    this.down = null; // why the server is not running, in words
    this.missingShown = false;
    this.forwarded = new Set(commands.SERVER_COMMANDS);
    context.subscriptions.push(this.output, this.trace, this.docs, this.reviewed, this.status,
      vscode.workspace.registerTextDocumentContentProvider(SCHEME, this.docs),
      vscode.workspace.registerTextDocumentContentProvider(REVIEWED_SCHEME, this.reviewed));
  }

  runningClient() {
    return this.client && this.client.isRunning() ? this.client : null;
  }

  // readyClient waits for a start in progress, then gives the running
  // client or null.
  async readyClient() {
    if (this.starting) await this.starting;
    return this.runningClient();
  }

  // notAvailable answers a command that needs the server while it is not
  // running.
  notAvailable(what) {
    const why = this.down || 'it is still starting';
    const actions = this.server ? ['Show Output'] : ['Locate binary…', 'Show Output'];
    vscode.window.showWarningMessage(`clew: cannot ${what}: the language server is not available (${why}).`, ...actions)
      .then((c) => this.act(c));
  }

  act(choice) {
    if (choice === 'Show Output') this.output.show(true);
    else if (choice === 'Locate binary…') this.locate();
    else if (choice === 'Open install docs') vscode.env.openExternal(vscode.Uri.parse(INSTALL_DOCS));
  }

  // start resolves the binary and starts the client. A missing binary is
  // said once per window, with what to do.
  start() {
    this.starting = this.doStart().finally(() => { this.starting = null; });
    return this.starting;
  }

  async doStart() {
    const cfg = vscode.workspace.getConfiguration('clew');
    const found = resolveServer({ setting: cfg.get('server.path'), extensionPath: this.context.extensionPath });
    if (!found.path) {
      this.server = null;
      this.down = found.reason;
      this.output.error(`clew-lsp not started: ${found.reason}. Looked at: ${found.tried.join(', ') || '(nothing)'}`);
      this.status.stopped('clew: server not found', found.reason, true, { title: 'Locate binary…', command: 'clew.locateServer' });
      if (!this.missingShown) {
        this.missingShown = true;
        vscode.window.showErrorMessage(
          `clew: ${found.reason}. Install clew-lsp or point the setting clew.server.path at it.`,
          'Locate binary…', 'Open install docs', 'Show output',
        ).then((c) => this.act(c === 'Show output' ? 'Show Output' : c));
      }
      return false;
    }
    this.server = found;
    this.output.info(`starting ${found.path} (${found.source})`);
    this.status.stopped('clew: starting…', `${found.path}`);
    this.status.health.busy = true;
    const client = createClient({
      command: found.path,
      args: cfg.get('server.args') || ['serve'],
      output: this.output,
      traceOutputChannel: this.trace,
      onClosed: (why) => this.stopped(why),
    });
    this.client = client;
    client.onNotification('clew/status', (s) => this.status.update(s));
    try {
      await client.start();
    } catch (err) {
      this.client = null;
      const why = `${found.path} did not start: ${err && err.message ? err.message : err}`;
      this.stopped(why);
      return false;
    }
    this.down = null;
    this.forwardOtherCommands(client);
    return true;
  }

  stopped(why) {
    this.down = why;
    this.output.error(why);
    this.status.stopped('clew: stopped', why, true, { title: 'Restart', command: 'clew.restartServer' });
    vscode.window.showErrorMessage(`clew: the language server is not running: ${why}.`, 'Show Output', 'Restart')
      .then((c) => (c === 'Restart' ? this.restart() : this.act(c)));
  }

  // forwardOtherCommands registers the server's commands the extension
  // does not know (a newer server), so that lenses and fixes naming them
  // still run.
  forwardOtherCommands(client) {
    const caps = client.initializeResult && client.initializeResult.capabilities;
    const names = (caps && caps.executeCommandProvider && caps.executeCommandProvider.commands) || [];
    for (const name of names) {
      if (this.forwarded.has(name)) continue;
      this.forwarded.add(name);
      this.context.subscriptions.push(vscode.commands.registerCommand(name, async (...args) => {
        const c = this.runningClient();
        if (!c) return this.notAvailable(`run ${name}`);
        try {
          return await c.sendRequest('workspace/executeCommand', { command: name, arguments: args });
        } catch (err) {
          this.output.error(`${name} failed: ${err && err.message}`);
          vscode.window.showErrorMessage(`clew: ${name} failed: ${err && err.message ? err.message : err}`);
          return undefined;
        }
      }));
    }
  }

  async restart() {
    const old = this.client;
    this.client = null;
    if (old) {
      try {
        await old.stop(5000);
      } catch (err) {
        this.output.warn(`stopping the old server: ${err && err.message}`);
      }
    }
    this.missingShown = false;
    return this.start();
  }

  async locate() {
    const picked = await vscode.window.showOpenDialog({ canSelectMany: false, openLabel: 'Use this clew-lsp', title: 'Locate the clew-lsp binary' });
    if (!picked || picked.length === 0) return false;
    await vscode.workspace.getConfiguration('clew').update('server.path', picked[0].fsPath, vscode.ConfigurationTarget.Global);
    return this.restart();
  }

  stop() {
    return this.client ? this.client.stop() : undefined;
  }
}

let controller;

async function activate(context) {
  controller = new Controller(context);
  const ctl = controller;
  commands.register(context, ctl);

  const api = {
    // For the extension's own tests in VS Code: what is resolved and shown.
    server: () => ctl.server,
    status: () => ctl.status.text(),
    running: () => !!ctl.runningClient(),
  };

  const cfg = vscode.workspace.getConfiguration('clew');
  if (!cfg.get('server.alwaysStart') && !(await hasProjectConfig()) && !(await hasAnchors())) {
    ctl.down = 'this workspace has no .clew.yml, no .multivac/config.yml and no @code/@anchor comment in its Markdown';
    ctl.output.info(`clew stays off: ${ctl.down} (the setting clew.server.alwaysStart starts it anyway)`);
    ctl.status.stopped('clew: off', ctl.down);
    // A doc that gains an anchor later turns clew on.
    const watch = vscode.workspace.onDidSaveTextDocument((doc) => {
      if (!ctl.client && doc.languageId === 'markdown' && ANCHOR.test(doc.getText())) {
        watch.dispose();
        ctl.start();
      }
    });
    context.subscriptions.push(watch);
    return api;
  }
  ctl.start(); // not awaited: activation ends at once; commands wait for the start
  return api;
}

function deactivate() {
  return controller ? controller.stop() : undefined;
}

module.exports = { activate, deactivate };
