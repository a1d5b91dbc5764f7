#!/usr/bin/env bash
# Installs ParaView's Python modules (python3-paraview: the Xdmf3 readers; Debian's python3-vtk9
# is built without XDMF) for the test python_paraview, which opens the .xmf files with ParaView's
# default reader. Optional like the SLURM packages: where the install fails, that test is skipped.
set -uo pipefail
p=python3-paraview
if dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
  echo "viewer-packages: $p present"; exit 0
fi
sudo=""
if [ "$(id -u)" != 0 ]; then
  command -v sudo >/dev/null || { echo "viewer-packages: need root or sudo for $p; python_paraview will be skipped" >&2; exit 0; }
  sudo="sudo -n"
fi
echo "viewer-packages: installing $p"
for try in 1 2; do
  $sudo apt-get update -q >/dev/null 2>&1 || true
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q --no-install-recommends "$p" >/dev/null && exit 0
  echo "viewer-packages: apt-get install $p failed (try $try)" >&2
done
echo "viewer-packages: $p not installed; python_paraview will be skipped" >&2
exit 0
