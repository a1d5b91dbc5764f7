#!/usr/bin/python3
"""The include arrows of src/fluid point one way between its rooms (src/fluid/README.md): geometry <
discretization < fast, solve < the fluid algebra. Prints every include that points back up or
sideways and exits 1; usage: check_layers.py SOURCE_DIR."""
import pathlib
import re
import sys

root = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else ".") / "src"
# Rank of each folder: a file may include only folders of lower or equal rank (same folder: any).
fluid_rooms = {"fluid/geometry": 0, "fluid/discretization": 1, "fluid/fast": 2, "fluid/solve": 2, "fluid": 3}
include = re.compile(r'#include "([a-z]+(?:/[a-z]+)?)/[A-Za-z0-9_]+\.hpp"')
bad = []
for f in sorted((root / "fluid").rglob("*.[ch]pp")):
    room = str(f.parent.relative_to(root))
    for n, line in enumerate(f.read_text().splitlines(), 1):
        m = include.match(line)
        if not m or not m.group(1).startswith("fluid"):
            continue
        target = m.group(1)
        if target not in fluid_rooms:
            bad.append(f"{f}:{n}: unknown room {target}")
        elif target != room and fluid_rooms[target] >= fluid_rooms[room]:
            bad.append(f"{f}:{n}: {room} includes {target} (arrows must point to earlier rooms)")
for b in bad:
    print(b)
print(f"check_layers: {len(bad)} include(s) against the layering")
sys.exit(1 if bad else 0)
