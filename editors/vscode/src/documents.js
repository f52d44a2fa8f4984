// Read-only documents for the answers of the dev-context commands, under
// the clew-context: scheme. Their path ends in .md (or .json), so VS Code
// gives them the Markdown language and "Open Preview" works on them.
'use strict';

const vscode = require('vscode');

const SCHEME = 'clew-context';

class AnswerDocuments {
  constructor() {
    this.texts = new Map();
    this.changed = new vscode.EventEmitter();
    this.onDidChange = this.changed.event;
  }

  provideTextDocumentContent(uri) {
    return this.texts.get(uri.toString()) ?? `This clew answer is gone (the window was reloaded). Run the command again.\n`;
  }

  // show puts text under a path named after its subject and opens it
  // beside the current editor. The same subject reuses its document.
  async show(name, ext, text) {
    const safe = name.replace(/[\\/:*?"<>|%]+/g, '_').slice(0, 120) || 'answer';
    const uri = vscode.Uri.from({ scheme: SCHEME, path: `/${safe}.${ext}` });
    const key = uri.toString();
    const had = this.texts.has(key);
    this.texts.set(key, text);
    if (had) this.changed.fire(uri);
    const doc = await vscode.workspace.openTextDocument(uri);
    if (ext === 'md' && doc.languageId !== 'markdown') await vscode.languages.setTextDocumentLanguage(doc, 'markdown');
    const column = vscode.window.activeTextEditor ? vscode.ViewColumn.Beside : vscode.ViewColumn.Active;
    return vscode.window.showTextDocument(doc, { viewColumn: column, preview: false, preserveFocus: false });
  }

  dispose() {
    this.changed.dispose();
  }
}

module.exports = { AnswerDocuments, SCHEME };
