// Words for the server's clew/status notification: the short health shown
// in the status item ("2 stale · 2 lost") and the longer detail. No vscode
// import, so the node tests check the wording.
'use strict';

// Anchor and claim states that need a person, in the order they are said.
const ANCHOR_PROBLEMS = ['stale', 'lost', 'moved-renamed', 'unpinned', 'unchecked', 'ambiguous'];
const CLAIM_PROBLEMS = ['broken', 'moved', 'vacuous', 'pending', 'unevaluated'];

function sum(counts) {
  return Object.values(counts || {}).reduce((a, b) => a + (Number(b) || 0), 0);
}

function plural(n, word) {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

// healthText: the problems in a few words, or what is fine when nothing is
// wrong. Claims are named as such, anchors are the default subject.
function healthText(status) {
  const anchors = status.anchors || {};
  const claims = status.claims || {};
  const parts = [];
  for (const s of ANCHOR_PROBLEMS) if (anchors[s] > 0) parts.push(`${anchors[s]} ${s}`);
  for (const s of CLAIM_PROBLEMS) if (claims[s] > 0) parts.push(`${claims[s]} ${s} claim${claims[s] === 1 ? '' : 's'}`);
  if (status.configErrors > 0) parts.unshift(plural(status.configErrors, 'config error'));
  if (parts.length > 0) return parts.join(' · ');
  const na = sum(anchors);
  const nc = sum(claims);
  if (na === 0 && nc === 0) return 'no anchors yet';
  const fine = [];
  if (na > 0) fine.push(na === (anchors.fresh || 0) ? `${plural(na, 'anchor')} fresh` : plural(na, 'anchor'));
  if (nc > 0) fine.push(nc === (claims.ok || 0) ? `${plural(nc, 'claim')} ok` : plural(nc, 'claim'));
  return fine.join(' · ');
}

// scope says what the health counts: "of 11 anchors, 2 claims".
function scope(status) {
  const na = sum(status.anchors);
  const nc = sum(status.claims);
  const parts = [];
  if (na > 0) parts.push(plural(na, 'anchor'));
  if (nc > 0) parts.push(plural(nc, 'claim'));
  return parts.length ? `of ${parts.join(', ')}` : '';
}

// statusWords is what the status items show for one clew/status.
function statusWords(status) {
  const version = status.version ? `clew-lsp ${status.version}` : 'clew-lsp';
  switch (status.state) {
    case 'starting':
      return { busy: true, error: false, text: 'clew: starting…', detail: version };
    case 'indexing':
      return { busy: true, error: false, text: 'clew: indexing…', detail: `${version} · ${status.message || 'reading the workspace'}` };
    case 'error':
      return { busy: false, error: true, text: 'clew: error', detail: `${version} · ${status.message || 'see the output'}` };
    default: {
      const error = status.configErrors > 0;
      return { busy: false, error, text: `clew: ${healthText(status)}`, detail: scope(status) };
    }
  }
}

module.exports = { healthText, statusWords };
