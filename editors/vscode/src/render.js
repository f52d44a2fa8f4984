// Words and Markdown for the answers of the server commands (verify,
// confirm, explain, the context's entries). No vscode import, so the node
// tests check them against real server answers.
'use strict';

const ANCHOR_ORDER = ['fresh', 'stale', 'lost', 'moved-renamed', 'unpinned', 'unchecked', 'ambiguous'];
const CLAIM_ORDER = ['ok', 'broken', 'moved', 'vacuous', 'pending', 'unevaluated', 'retired'];

function countBy(items, order) {
  const counts = {};
  for (const it of items || []) counts[it.state] = (counts[it.state] || 0) + 1;
  const keys = Object.keys(counts).sort((a, b) => {
    const ia = order.indexOf(a) < 0 ? order.length : order.indexOf(a);
    const ib = order.indexOf(b) < 0 ? order.length : order.indexOf(b);
    return ia - ib || a.localeCompare(b);
  });
  return keys.map((k) => `${counts[k]} ${k}`);
}

function plural(n, word) {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

// verifySummary: clew.verifyWorkspace's answer (one report, or
// [{root, report}] for several folders) in one sentence, and whether
// `clew-lsp verify` would fail on it.
function verifySummary(result) {
  const reports = Array.isArray(result) ? result.map((r) => r.report || r) : [result || {}];
  const anchors = [];
  const claims = [];
  let failing = false;
  let incomplete = false;
  for (const r of reports) {
    anchors.push(...(r.anchors || []));
    claims.push(...(r.claims || []));
    if (r.exit && r.exit !== 0) failing = true;
    if (r.complete === false) incomplete = true;
  }
  const parts = [];
  parts.push(anchors.length ? `${plural(anchors.length, 'anchor')}: ${countBy(anchors, ANCHOR_ORDER).join(', ')}` : 'no anchors');
  if (claims.length) parts.push(`${plural(claims.length, 'claim')}: ${countBy(claims, CLAIM_ORDER).join(', ')}`);
  let text = `clew verify: ${parts.join('; ')}.`;
  text += failing ? ' `clew-lsp verify` fails on this workspace.' : ' `clew-lsp verify` passes.';
  if (incomplete) text += ' The check ran out of budget; some anchors are unchecked.';
  return { text, failing, anchors: anchors.length, claims: claims.length };
}

// confirmSummary: what clew.confirm pinned, in words.
function confirmSummary(result) {
  const r = result || {};
  const confirmed = r.confirmed || [];
  const refused = r.refused || [];
  if (confirmed.length === 0 && refused.length === 0) {
    return { text: r.message ? `clew: ${r.message}` : 'clew: there is no anchor to confirm here.', ok: false };
  }
  let text = '';
  if (confirmed.length) {
    const what = confirmed.length <= 3 ? confirmed.join(', ') : `${confirmed.slice(0, 3).join(', ')} and ${confirmed.length - 3} more`;
    text = r.applied === false
      ? `clew: the edit pinning ${what} was not applied.`
      : `clew: pinned ${plural(confirmed.length, 'anchor')} as reviewed: ${what}.`;
  }
  if (refused.length) text += `${text ? ' ' : 'clew: '}Not confirmed: ${refused.join('; ')}`;
  return { text, ok: confirmed.length > 0 && r.applied !== false };
}

function short(uri) {
  return String(uri || '').replace(/^clew:\/\/[a-z]+\//, '');
}

// The exclusions that are the repository's doing: a passage that no longer
// holds. Listed before everything else, as the context's Markdown does.
const LEFT_OUT = new Set(['stale', 'superseded', 'unresolved']);

// contextItems: the entries of a compiled context (clew.compileContext's
// JSON) to pick from: what the repository left out (leftOut), the selected
// entries, then what the request left out (budget, relevance, depth,
// outlined).
function contextItems(compiled) {
  const selected = (compiled.selected || []).map((e) => {
    const by = (e.discovered_by || [])[0];
    return {
      group: 'selected',
      uri: e.uri,
      label: e.title || short(e.uri),
      description: `${e.tier} · ${e.kind} · ${e.cost_tokens} tokens${e.required ? ' · required' : ''}`,
      detail: by ? `${by.selector}: ${by.reason}` : e.uri,
    };
  });
  const item = (e) => ({
    group: LEFT_OUT.has(e.reason) ? 'leftOut' : 'excluded',
    uri: e.uri,
    label: short(e.uri),
    description: `${e.tier} · excluded: ${e.reason}`,
    detail: e.detail || e.uri,
  });
  const all = (compiled.excluded || []).map(item);
  return { leftOut: all.filter((e) => e.group === 'leftOut'), selected, excluded: all.filter((e) => e.group === 'excluded') };
}

function seedName(compiled) {
  const seed = (compiled.seeds || [])[0];
  return seed ? short(seed.uri) : 'the cursor';
}

// explainMarkdown renders clew.explainContext's answer for a person.
function explainMarkdown(answer, seed) {
  const a = answer || {};
  const lines = [`# Why \`${a.uri}\` is ${a.standing || 'where it is'}`, ''];
  lines.push(`In the dev context compiled for \`${seed}\`: **${a.standing || 'unknown'}**.`, '');
  if (a.detail) lines.push(a.detail, '');
  const entry = a.selected || a.excluded || a.entry;
  if (entry) {
    lines.push('| field | value |', '| --- | --- |');
    for (const [k, v] of Object.entries(entry)) {
      if (k === 'discovered_by' || k === 'provenance' || k === 'facts') continue;
      lines.push(`| ${k} | ${String(typeof v === 'object' ? JSON.stringify(v) : v).replace(/\|/g, '\\|')} |`);
    }
    lines.push('');
    for (const d of entry.discovered_by || []) {
      lines.push(`- found by **${d.selector}**${d.via ? ` via \`${d.via}\`` : ''}: ${d.reason}`);
    }
    if ((entry.discovered_by || []).length) lines.push('');
  }
  const b = a.budget;
  if (b) lines.push(`Budget: ${b.used_tokens} of ${b.limit_tokens} tokens used (${b.required_tokens} required), ${b.remaining_tokens} left.`, '');
  return lines.join('\n');
}

// wordsOf turns a failed request into a sentence for "clew: could not X:
// …": the server's message (written for people), never a JSON-RPC code.
function wordsOf(err) {
  const msg = err && err.message ? String(err.message) : String(err);
  return msg.replace(/^Request \S+ failed with message: /, '').replace(/\s*\(-?\d{4,5}\)$/, '');
}

module.exports = { wordsOf, verifySummary, confirmSummary, contextItems, explainMarkdown, seedName };
