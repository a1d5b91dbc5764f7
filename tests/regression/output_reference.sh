#!/usr/bin/env bash
# docs/output.md's column tables must equal what the models declare (kirchhoff-<driver> --log-reference).
source "$(dirname "$0")/lib.bash"
bash "$SRC/docs/generate_output.sh" "$BIN" generated.md
diff -u "$SRC/docs/output.md" generated.md || fail "docs/output.md is stale: run bash docs/generate_output.sh"
echo "log-column reference current"
