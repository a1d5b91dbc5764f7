#!/usr/bin/env bash
# docs/decks.md must equal what the validator's tables generate (the reference cannot drift from the code).
source "$(dirname "$0")/lib.bash"
bash "$SRC/docs/generate_decks.sh" "$BIN" generated.md
diff -u "$SRC/docs/decks.md" generated.md || fail "docs/decks.md is stale: run bash docs/generate_decks.sh"
echo "deck reference current"
