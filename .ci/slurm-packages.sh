#!/usr/bin/env bash
# Installs the Debian packages of the one-machine SLURM used by tests/slurm/fixture.sh and
# tests/regression/slurm_*.sh (docs/running.md "SLURM on one machine"). Idempotent: a no-op
# when all are present. Never fails the CI run: without the packages the SLURM tests skip (77).
set -uo pipefail
packages=(slurmctld slurmd slurm-client munge)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && { echo "slurm-packages: ${packages[*]} present"; exit 0; }
command -v apt-get >/dev/null || { echo "slurm-packages: no apt-get; SLURM tests will be skipped"; exit 0; }
sudo=""
if [ "$(id -u)" != 0 ]; then
  command -v sudo >/dev/null || { echo "slurm-packages: not root and no sudo; SLURM tests will be skipped"; exit 0; }
  sudo="sudo -n"
fi
echo "slurm-packages: installing ${missing[*]}"
# The package scripts try to start services (no systemd here): policy-rc.d 101 forbids that.
pol=/usr/sbin/policy-rc.d
made_policy=0
if [ ! -e "$pol" ]; then
  printf '#!/bin/sh\nexit 101\n' | $sudo tee "$pol" >/dev/null && $sudo chmod 755 "$pol" && made_policy=1
fi
ok=0
for try in 1 2; do
  $sudo apt-get update -q >/dev/null 2>&1 || true
  if DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q --no-install-recommends "${missing[@]}"; then
    ok=1; break
  fi
  echo "slurm-packages: apt-get install failed (try $try)"
done
[ $made_policy = 1 ] && $sudo rm -f "$pol"
if [ $ok = 1 ]; then echo "slurm-packages: installed"; else echo "slurm-packages: could not install; SLURM tests will be skipped"; fi
exit 0
