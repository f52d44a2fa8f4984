// The vscode-languageclient client for clew-lsp, adjusted so that nothing
// raw reaches the user: the extension owns the server's commands (it
// registers them at activation, so they never say "command not found",
// and shows their answers), and the client's own error toasts become log
// lines; the extension says what went wrong in words instead.
'use strict';

const vscode = require('vscode');
const { LanguageClient, TransportKind, RevealOutputChannelOn, CloseAction, ErrorAction } = require('vscode-languageclient/node');

// Markdown docs plus every language clew indexes.
const LANGUAGES = [
  'markdown', 'mdx',
  'go', 'typescript', 'typescriptreact', 'javascript', 'javascriptreact',
  'python', 'rust', 'java', 'kotlin', 'swift', 'c', 'cpp', 'csharp',
];

const SELECTOR = LANGUAGES.map((language) => ({ scheme: 'file', language }));

// The commands hover Markdown may run through a command: link. The server
// writes the "Show what changed since review" link only for clients that
// say they run them (capabilities.experimental.clew.commandLinks).
const LINK_COMMANDS = ['clew.showChange'];

// clewCapabilities tells the server what the extension does with its
// extras (docs/server.md, "Client capabilities").
const clewCapabilities = {
  fillClientCapabilities(caps) {
    caps.experimental = { ...(caps.experimental || {}), clew: { commandLinks: true } };
  },
  initialize() {},
  getState() { return { kind: 'static' }; },
  clear() {},
};

class ClewClient extends LanguageClient {
  // The extension registers the commands itself (see commands.js); the
  // client's ExecuteCommandFeature would register them a second time.
  registerFeature(feature) {
    if (feature && feature.registrationType && feature.registrationType.method === 'workspace/executeCommand') return;
    super.registerFeature(feature);
  }

  // Errors go to the log only; the extension reports failures in words.
  error(message, data) {
    super.error(message, data, false);
  }
}

// serverSettings is the "clew" section for initializationOptions (the
// server pulls it again with workspace/configuration; it maps the
// camelCase keys to the .clew.yml ones and ignores server/trace).
function serverSettings() {
  const cfg = vscode.workspace.getConfiguration('clew');
  const out = {};
  for (const key of ['docs', 'budget', 'languages', 'anchors', 'hintsInCode']) {
    const v = cfg.get(key);
    if (v !== undefined) out[key] = v;
  }
  return out;
}

// createClient builds the client for the resolved binary. onClosed is
// called when the server stopped for good (it crashed too often).
function createClient({ command, args, output, traceOutputChannel, onClosed }) {
  const executable = { command, args, transport: TransportKind.stdio };
  let restarts = [];
  const client = new ClewClient('clew', 'clew', { run: executable, debug: executable }, {
    documentSelector: SELECTOR,
    markdown: { isTrusted: { enabledCommands: LINK_COMMANDS } },
    outputChannel: output,
    traceOutputChannel,
    revealOutputChannelOn: RevealOutputChannelOn.Never,
    initializationOptions: serverSettings(),
    initializationFailedHandler: () => false,
    errorHandler: {
      error: () => ({ action: ErrorAction.Continue, handled: true }),
      closed: () => {
        const now = Date.now();
        restarts = restarts.filter((t) => now - t < 3 * 60 * 1000);
        restarts.push(now);
        if (restarts.length <= 4) {
          output.warn(`clew-lsp stopped; restarting it (${restarts.length} of 4 in 3 minutes)`);
          return { action: CloseAction.Restart, handled: true };
        }
        onClosed('clew-lsp stopped 5 times in 3 minutes and was not restarted');
        return { action: CloseAction.DoNotRestart, handled: true };
      },
    },
  });
  client.registerFeature(clewCapabilities);
  return client;
}

module.exports = { createClient, LANGUAGES, SELECTOR };
