// "Show what changed since review": clew.showChange's answer in VS Code's
// diff editor. The left side is a read-only virtual document under the
// clew-reviewed: scheme holding the file as it was reviewed (the file now,
// with the reviewed version of the declaration, range or doc in place);
// the right side is the real file, so the change shows on the file's own
// line numbers and stays editable.
'use strict';

const vscode = require('vscode');

const SCHEME = 'clew-reviewed';

// firstDifference is the first 0-based line where two texts differ.
function firstDifference(a, b) {
  const x = a.split(/\r?\n/);
  const y = b.split(/\r?\n/);
  for (let i = 0; i < Math.max(x.length, y.length); i++) {
    if (x[i] !== y[i]) return Math.min(i, y.length - 1);
  }
  return 0;
}

class ReviewedDocuments {
  constructor() {
    this.texts = new Map();
    this.changed = new vscode.EventEmitter();
    this.onDidChange = this.changed.event;
  }

  provideTextDocumentContent(uri) {
    return this.texts.get(uri.toString()) ?? 'This reviewed version is gone (the window was reloaded). Run Show What Changed Since Review again.\n';
  }

  // uriFor names the reviewed file after its path (so the language is the
  // file's), with the anchor and the commit in the query, one per anchor.
  uriFor(change) {
    return vscode.Uri.from({ scheme: SCHEME, path: `/${change.path}`, query: `${change.anchor}@${change.reviewed_commit}` });
  }

  // show opens the diff of a clew.showChange answer; folder is the
  // workspace folder its path is relative to.
  async show(change, folder) {
    const left = this.uriFor(change);
    const key = left.toString();
    const had = this.texts.has(key);
    this.texts.set(key, change.before_file);
    if (had) this.changed.fire(left);
    const right = vscode.Uri.joinPath(folder, ...change.path.split('/'));
    const title = `${change.subject}: reviewed (${change.reviewed_commit.slice(0, 7)}) ↔ now`;
    const now = (await vscode.workspace.openTextDocument(right)).getText();
    const line = firstDifference(change.before_file, now);
    await vscode.commands.executeCommand('vscode.diff', left, right, title,
      { preview: false, selection: new vscode.Range(line, 0, line, 0) });
    return { title, left: key, right: right.toString(), line };
  }

  dispose() {
    this.changed.dispose();
  }
}

module.exports = { ReviewedDocuments, SCHEME };
