#!/usr/bin/env bash
# Validates SARIF logs with Microsoft's SARIF validator (`sarif-multitool
# validate`, installed by utils/setup.sh): the JSON schema of SARIF 2.1.0
# and the validator's rules. Prints every error and warning it reports and
# exits 1 if there is one (the validator itself exits 0 either way), 2 if the
# validator is not installed.
#
#   utils/sarif_validate.sh FILE.sarif...
#
# One warning is accepted: SARIF2005's request for the tool's home page
# (tool.driver.informationUri), which msledger does not have yet.
set -euo pipefail

sarif_version=5.7.0
tools="${MSLEDGER_TOOLS_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/msledger}"
validator="$tools/sarif-multitool-$sarif_version/node_modules/.bin/sarif-multitool"
if [[ ! -x "$validator" ]]; then
  echo "sarif_validate: no SARIF validator at $validator; run utils/setup.sh" >&2
  exit 2
fi
(($#)) || { echo "usage: sarif_validate.sh FILE.sarif..." >&2; exit 2; }

scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
status=0
for file in "$@"; do
  if [[ ! -f "$file" ]]; then
    echo "$file: no such file" >&2
    status=1
    continue
  fi
  if ! log="$("$validator" validate "$file" --output "$scratch/out.sarif" \
                --log ForceOverwrite 2>&1)"; then
    printf '%s\n' "$log" >&2
    status=1
    continue
  fi
  problems="$(grep -E ': (error|warning) [A-Z]+[0-9]+:' <<<"$log" |
              grep -v "SARIF2005: .*does not provide 'informationUri'" || true)"
  if [[ -n "$problems" ]]; then
    printf '%s\n' "$problems"
    status=1
  elif ! grep -q 'Analysis completed successfully' <<<"$log"; then
    printf '%s\n' "$log" >&2
    status=1
  else
    echo "$file: valid SARIF"
  fi
done
exit "$status"
