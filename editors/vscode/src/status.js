// The language status items: the workspace's health ("clew: 2 stale ·
// 2 lost", command Verify) and the server (version and state, command
// Actions: Show Output / Restart / Verify), fed by the server's clew/status
// notification. They show next to the language of any file clew reads.
'use strict';

const vscode = require('vscode');
const { statusWords } = require('./health');

class StatusItems {
  constructor(selector) {
    this.health = vscode.languages.createLanguageStatusItem('clew.health', selector);
    this.health.name = 'clew: anchor health';
    this.server = vscode.languages.createLanguageStatusItem('clew.server', selector);
    this.server.name = 'clew: language server';
    this.server.command = { title: 'Actions…', command: 'clew.statusActions', tooltip: 'Show Output, Restart, Verify' };
    this.last = null;
    this.stopped('clew: off', 'the server has not started');
  }

  // update shows one clew/status.
  update(status) {
    this.last = status;
    const w = statusWords(status);
    this.health.text = w.text;
    this.health.detail = w.detail;
    this.health.busy = w.busy;
    this.health.severity = w.error ? vscode.LanguageStatusSeverity.Error : vscode.LanguageStatusSeverity.Information;
    this.health.command = w.busy ? undefined : { title: 'Verify', command: 'clew.verifyWorkspace', tooltip: 'Verify the workspace' };
    this.server.text = status.version ? `clew-lsp ${status.version}` : 'clew-lsp';
    this.server.detail = status.state === 'error' ? `error: ${status.message}` : status.state;
    this.server.busy = w.busy;
    this.server.severity = status.state === 'error' ? vscode.LanguageStatusSeverity.Error : vscode.LanguageStatusSeverity.Information;
  }

  // stopped shows a server that is not running (missing, off, crashed).
  stopped(text, detail, error = false, command) {
    this.last = null;
    this.health.text = text;
    this.health.detail = detail;
    this.health.busy = false;
    this.health.severity = error ? vscode.LanguageStatusSeverity.Error : vscode.LanguageStatusSeverity.Information;
    this.health.command = command;
    this.server.text = 'clew-lsp';
    this.server.detail = 'not running';
    this.server.busy = false;
    this.server.severity = error ? vscode.LanguageStatusSeverity.Error : vscode.LanguageStatusSeverity.Information;
  }

  // text is what the health item says now (for the extension's test API).
  text() {
    return { health: this.health.text, detail: this.health.detail, server: this.server.text, state: this.last && this.last.state };
  }

  dispose() {
    this.health.dispose();
    this.server.dispose();
  }
}

module.exports = { StatusItems };
