// Package query answers the editor's questions to the workspace façade:
// pure functions over one workspace.Snapshot and the workspace.Report
// checked from it, answering with plain values located by byte offsets.
// They reach the snapshot only through its exported methods. The server
// turns the answers into LSP values; nothing here knows LSP.
package query
