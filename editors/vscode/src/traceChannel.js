// The trace channel handed to vscode-languageclient. The client traces
// only when its trace channel's log level is Trace, so with a plain log
// channel at Info the `clew.trace.server` setting shows nothing. This
// channel reports Trace exactly when the setting is on and writes the
// messages to a plain "clew (trace)" output channel, created on first use.
'use strict';

const vscode = require('vscode');

const NAME = 'clew (trace)';

function traceLevel() {
  const setting = vscode.workspace.getConfiguration('clew').get('trace.server', 'off');
  return setting === 'off' ? vscode.LogLevel.Info : vscode.LogLevel.Trace;
}

function createTraceChannel() {
  let channel;
  let level = traceLevel();
  const changed = new vscode.EventEmitter();
  const out = () => channel || (channel = vscode.window.createOutputChannel(NAME));
  const watch = vscode.workspace.onDidChangeConfiguration((e) => {
    if (!e.affectsConfiguration('clew.trace.server')) return;
    const next = traceLevel();
    if (next !== level) {
      level = next;
      changed.fire(level);
    }
  });
  const write = (msg) => out().appendLine(msg);
  return {
    name: NAME,
    get logLevel() { return level; },
    onDidChangeLogLevel: changed.event,
    trace(msg) { if (level === vscode.LogLevel.Trace) write(msg); },
    debug(msg) { if (level === vscode.LogLevel.Trace) write(msg); },
    info: write,
    warn: write,
    error: write,
    append: (v) => out().append(v),
    appendLine: write,
    replace: (v) => out().replace(v),
    clear: () => channel && channel.clear(),
    show: (...args) => out().show(...args),
    hide: () => channel && channel.hide(),
    dispose() {
      watch.dispose();
      changed.dispose();
      if (channel) channel.dispose();
    },
  };
}

module.exports = { createTraceChannel };
