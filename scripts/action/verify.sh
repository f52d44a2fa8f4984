#!/usr/bin/env bash
# The action's verify step: annotations (verify --format github) and the
# job summary, then the SARIF file when asked. Exits with verify's code.
#   INPUT_DIR, INPUT_STRICT, INPUT_CHECK, INPUT_SARIF (see action.yml)
set -uo pipefail
clew=${CLEW_LSP:-clew-lsp}
args=("${INPUT_DIR:-.}")
[ "${INPUT_STRICT:-false}" = true ] && args+=(--strict)
[ "${INPUT_CHECK:-true}" = true ] && args+=(--check)

"$clew" verify "${args[@]}" --format github
code=$?
if [ -n "${INPUT_SARIF:-}" ] && [ "$code" -le 1 ]; then
  mkdir -p "$(dirname "$INPUT_SARIF")"
  # --check: the first run already healed what it would; this one only reports.
  GITHUB_STEP_SUMMARY="" "$clew" verify "${args[@]}" --check --format sarif >"$INPUT_SARIF"
  echo "clew-lsp: SARIF written to $INPUT_SARIF"
fi
echo "exit-code=$code" >>"${GITHUB_OUTPUT:-/dev/null}"
exit "$code"
