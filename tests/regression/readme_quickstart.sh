#!/usr/bin/env bash
# README.md's commands, run as written: every ```sh block (the quick start and the plot) and the
# ```python block, in a scratch folder laid out like the checkout, with the test build as build/
# (KIRCHHOFF_BUILD): `setup.sh run` gets --steps 20, `setup.sh test` lists the suite (-N) instead
# of running it inside itself. Checks what the README says they do (one rank, the output folder,
# the picture, nothing rebuilt) and that every path and program the README names exists.
source "$(dirname "$0")/lib.bash"
build=$(dirname "$BIN")
readme=$SRC/README.md
unset KIRCHHOFF_CMAKE_ARGS NP  # the README's defaults; KIRCHHOFF_CMAKE_ARGS would reconfigure the build

# ctest must not rebuild the tree: the commands below build, so the test build must be up to date
# (a dry run of the build lists nothing to compile or link).
stale=$(cmake --build "$build" -- -n 2>&1 | grep -E 'Building CXX|Linking CXX' | sed -E 's/.*"(.*)".*/\1/' || true)
[ -z "$stale" ] || { echo "$stale" | head >&2; fail "the test build is not up to date ($(echo "$stale" | wc -l) steps): build it before running ctest"; }

# The checkout as the user sees it: the scripts resolve the real one (cd -P), outputs land here.
for d in cmake input postprocess docs; do ln -s "$SRC/$d" "$d"; done

# blocks LANG: the README's fenced LANG blocks, one command per line (comments and blank lines
# dropped), blocks separated by a line "#--".
blocks() {
  $PY - "$readme" "$1" <<'PY'
import re, sys
text, lang = open(sys.argv[1]).read(), sys.argv[2]
for body in re.findall(r"^```" + lang + r"\n(.*?)^```", text, re.S | re.M):
    print(body.rstrip("\n")); print("#--")
PY
}

cmds=()
while IFS= read -r line; do
  line=${line%%#*}                             # the comment after a command
  line=${line%"${line##*[![:space:]]}"}        # trailing blanks
  [ -n "$line" ] && cmds+=("$line")
done < <(blocks sh)
[ ${#cmds[@]} -ge 3 ] || fail "README has ${#cmds[@]} shell commands in \`\`\`sh blocks, expected the quick start and the plot"
printf '%s\n' "${cmds[@]}" | grep -qx 'bash cmake/setup.sh run' || fail "README lacks 'bash cmake/setup.sh run'"
printf '%s\n' "${cmds[@]}" | grep -qx 'bash cmake/setup.sh test' || fail "README lacks 'bash cmake/setup.sh test'"

for cmd in "${cmds[@]}"; do
  run=$cmd
  case $cmd in
    "bash cmake/setup.sh run"*) run="$cmd --steps 20" ;;
    "bash cmake/setup.sh test"*) run="$cmd -N" ;;
  esac
  echo "readme: $run"
  set +e; KIRCHHOFF_BUILD=$build timeout -k 5 600 bash -c "$run" >last.out 2>&1; code=$?; set -e
  [ $code = 0 ] || { cat last.out >&2; fail "README command '$cmd' exited $code"; }
  # ctest must not rebuild the tree: the README commands find the test build up to date.
  if grep -qE '(Building|Linking) CXX' last.out; then
    grep -E '(Building|Linking) CXX' last.out | head >&2
    fail "'$cmd' compiled inside ctest: the build was not up to date (build before testing)"
  fi
  case $cmd in
    "bash cmake/setup.sh run"*)
      out=out/fluidbody_disk_vortex
      $PY - "$out/summary.json" <<'PY' || { cat last.out >&2; fail "setup.sh run did not finish 20 steps on 1 rank in out/fluidbody_disk_vortex"; }
import json, sys
s = json.load(open(sys.argv[1]))
assert (s["status"], s["exit_status"], s["ranks"], s["last_step"]) == ("finished", 0, 1, 20), s
assert s["deck_file"].endswith("input/fluidbody_disk_vortex.yaml"), s["deck_file"]
PY
      # The files the README lists under "What a run writes" (snapshots only with snapshot_interval).
      for f in invariants.h5 summary.json checkpoints; do
        [ -e "$out/$f" ] || fail "README lists $out/$f, the run did not write it"
      done
      ;;
    "bash cmake/setup.sh test"*)
      n=$(sed -n 's/^Total Tests: *//p' last.out)
      [ "${n:-0}" -gt 50 ] || { cat last.out >&2; fail "setup.sh test listed ${n:-no} tests"; }
      grep -q "regression_readme_quickstart" last.out || fail "setup.sh test does not list this test"
      ;;
  esac
done

# What the comments promise ("# -> FILE"), e.g. the plot's picture.
while IFS= read -r want; do
  [ -e "$want" ] || fail "README promises $want, not written"
  echo "readme: $want written"
done < <(blocks sh | sed -n 's/.*# -> *\([^ ]*\).*/\1/p')

# The Python example, against the same run.
n=0
while IFS= read -r -d '' block; do
  printf '%s\n' "$block" > example.py
  PYTHONPATH=postprocess MPLBACKEND=Agg $PY example.py >last.out 2>&1 || { cat example.py last.out >&2; fail "README's Python example failed"; }
  n=$((n + 1))
done < <(blocks python | $PY -c "import sys; [sys.stdout.write(b + '\0') for b in sys.stdin.read().split('#--\n') if b.strip()]")
[ $n -ge 1 ] || fail "README has no \`\`\`python example"

# Every path and program the README names exists: files in the checkout, build/bin/ programs
# among the build's targets.
$PY - "$readme" "$SRC" "$BIN" <<'PY'
import os, re, sys
readme, src, bindir = sys.argv[1:4]
text = open(readme).read()
bad = []
for m in set(re.findall(r"(?<![\w/.-])((?:cmake|input|postprocess|docs|jobscripts|tests|\.ci|src|drivers)/[\w./-]*\w)", text)):
    if "<" in m or "*" in m:
        continue
    if not os.path.exists(os.path.join(src, m)):
        bad.append(m)
for prog in set(re.findall(r"build/bin/([\w-]+)", text)):
    if not os.path.exists(os.path.join(bindir, prog)):
        bad.append("build/bin/" + prog)
for deck in set(re.findall(r"`((?:fluidbody|top|damped|slosh)_\w+\.yaml)`", text)):
    if not os.path.exists(os.path.join(src, "input", deck)):
        bad.append("input/" + deck)
if bad:
    sys.exit("README names what does not exist: " + ", ".join(sorted(bad)))
PY
echo "readme: ${#cmds[@]} commands and the Python example ran as written; paths exist"
