#!/usr/bin/env bash
# Installs the Debian packages of the hardening stages (.ci/sanitize.sh, .ci/fuzz.sh and the
# optional .ci/valgrind.sh): clang 14 with its sanitizer and libFuzzer runtimes, valgrind.
# Idempotent (a no-op when present). Unlike the SLURM packages these are required: the stages fail
# without them, so a failed install fails CI.
set -euo pipefail
packages=(clang-14 libclang-rt-14-dev valgrind)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && { echo "hardening-packages: ${packages[*]} present"; exit 0; }
sudo=""
if [ "$(id -u)" != 0 ]; then
  command -v sudo >/dev/null || { echo "hardening-packages: need root or sudo for: ${missing[*]}" >&2; exit 1; }
  sudo="sudo -n"
fi
echo "hardening-packages: installing ${missing[*]}"
for try in 1 2; do
  $sudo apt-get update -q >/dev/null 2>&1 || true
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q --no-install-recommends "${missing[@]}" && exit 0
  echo "hardening-packages: apt-get install failed (try $try)" >&2
done
exit 1
