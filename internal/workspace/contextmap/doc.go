// Package contextmap maps a workspace snapshot onto the dev-context
// compiler's world: it fills a devcontext.World (symbols, tests, passages
// with their anchor state, docs, ADRs, AGENTS.md, callers and callees,
// claims, history) from a workspace.Snapshot and its Check, and asks
// internal/devcontext to compile, explain or render the answer. It reaches
// the snapshot only through the façade's exported methods, and memoises
// per snapshot (by weak pointer) and per Load (Snapshot.LoadMemo).
package contextmap
