#!/usr/bin/python3
"""Every citation of the documentation resolves (ctest docs_citations).

Scans the source, decks, scripts, jobscripts, tests, CI files, README and docs/ for
  - docs pages: `docs/NAME.md` or a bare `NAME.md` must be a file in docs/ (README.md,
    sweep_summary.md and test scratch names excepted), `NAME.md#anchor` a heading or <a id> of it;
  - sections: quoted names right after a page (`docs/fluidbody.md "Panel method", "Tools"`) and
    `Sec. N` must be headings of that page;
  - equations: every (FB-n), (HT-n), (DA-n), (SL-n) must be defined, once, at the end of a line
    in a code block of fluidbody.md, heavytop.md, damped.md, slosh.md respectively ((CM-n):
    composition.md);
  - links: relative Markdown links in README.md and docs/*.md must point to existing files
    (and headings);
  - papers: "Author YEAR" must match an entry of docs/references.md, and nothing may cite the
    developers' copies of the papers ("seed 000", ../shared): users have only the repository.
Prints file:line: problem for each failure and exits 1 if there is any.

usage: check_citations.py [SOURCE_DIR]
"""
import os
import re
import sys
import unicodedata

ROOT = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..", ".."))
DOCS = os.path.join(ROOT, "docs")
SELF = os.path.abspath(__file__)
SCAN = ["src", "input", "postprocess", "jobscripts", "drivers", "tests", "cmake", ".ci"]
SKIP = [os.path.join("tests", "fuzz", "corpus"), os.path.join("tests", "fuzz", "regressions")]
TOP_FILES = ["CMakeLists.txt", "README.md"]
PREFIX = {"FB": "fluidbody", "HT": "heavytop", "DA": "damped", "SL": "slosh", "CM": "composition"}
NOT_DOCS = {"README", "sweep_summary", "generated"}  # .md names that are not docs pages

LABEL_DEF = re.compile(r"\((FB|HT|DA|SL|CM)-(\d+[a-z]?)\)\s*$")
LABEL_REF = re.compile(r"\b(FB|HT|DA|SL|CM)-(\d+[a-z]?)\b")
PAGE = re.compile(r"(?<![\w/.\-])(docs/)?([A-Za-z0-9_\-]+)\.md(#[\w\-]+)?")
QUOTED = re.compile(r'\s*(?:,|;|and)?\s*"([^"\n]*)("?)')
SECTION_NUMBER = re.compile(r"\s*,?\s*Secs?\.\s*(\d+)")
LINK = re.compile(r"\]\(([^)\s]*)\)")
AUTHOR_YEAR = re.compile(r"\b([A-Z][\w\u00c0-\u024f]+(?:[\-\u2013][A-Z][\w\u00c0-\u024f]+)*)"
                         r"(?: et al\.)?,? ((?:18|19|20)\d\d)\b")
FORBIDDEN = [(re.compile(r"\bseeds?\s*\d{3}\b", re.I), "cites the developers' copy of a paper: cite the paper "
              "(docs/references.md) or our equation numbers instead"),
             (re.compile(r"shared/(docs|seeds)|\.\./shared"), "points outside the repository (../shared)")]


def normalize(s):
    s = unicodedata.normalize("NFKD", s.replace("ß", "ss")).lower()
    s = "".join(c for c in s if not unicodedata.combining(c))
    s = re.sub(r"^\s*\d+(\.\d+)*\.?\s+", "", s)
    return re.sub(r"[^a-z0-9]+", " ", s).strip()


def slug(heading):
    """GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens."""
    h = heading.strip().lower()
    h = "".join(c for c in h if c.isalnum() or c in " -_")
    return h.replace(" ", "-")


def read(path):
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError:
        return None
    if b"\0" in data:
        return None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return None


class Page:
    def __init__(self, name, text):
        self.name, self.text = name, text
        self.lines = text.splitlines()
        self.headings, self.anchors, self.labels, in_code = [], set(), {}, False
        for n, line in enumerate(self.lines, 1):
            if line.startswith("```"):
                in_code = not in_code
            if not in_code and re.match(r"#{1,6} ", line):
                h = line.lstrip("#").strip()
                self.headings.append(h)
                self.anchors.add(slug(h))
            for m in re.finditer(r'<a id="([^"]+)"', line):
                self.anchors.add(m.group(1))
            m = LABEL_DEF.search(line) if in_code else None
            if m:
                self.labels.setdefault(f"{m.group(1)}-{m.group(2)}", []).append(n)

    def has_section(self, name):
        want = normalize(name)
        return bool(want) and any(want in normalize(h) for h in self.headings)

    def has_section_number(self, k):
        return any(re.match(rf"{k}[.\s]", h) for h in self.headings)


def files_to_scan():
    out = [os.path.join(ROOT, f) for f in TOP_FILES if os.path.isfile(os.path.join(ROOT, f))]
    out += sorted(os.path.join(DOCS, f) for f in os.listdir(DOCS) if f.endswith(".md"))
    for d in SCAN:
        for root, dirs, files in os.walk(os.path.join(ROOT, d)):
            rel = os.path.relpath(root, ROOT)
            dirs[:] = [x for x in dirs if x != "__pycache__" and not any(
                os.path.join(rel, x).startswith(s) for s in SKIP)]
            out += [os.path.join(root, f) for f in sorted(files) if not f.endswith((".h5", ".png", ".pyc"))]
    return [f for f in out if os.path.abspath(f) != SELF]  # not its own examples


def reference_entries():
    text = read(os.path.join(DOCS, "references.md")) or ""
    blocks = re.split(r"\n\s*\n|\n(?=- )", text)
    return [normalize(b) for b in blocks]


def check():
    problems = []
    pages = {f[:-3]: Page(f[:-3], read(os.path.join(DOCS, f)) or "") for f in os.listdir(DOCS) if f.endswith(".md")}
    labels = {}
    for p in pages.values():
        for lab, lines in p.labels.items():
            if len(lines) > 1:
                problems.append(f"docs/{p.name}.md:{lines[1]}: ({lab}) defined twice (first on line {lines[0]})")
            if PREFIX[lab.split("-")[0]] != p.name:
                problems.append(f"docs/{p.name}.md:{lines[0]}: ({lab}) belongs in docs/{PREFIX[lab.split('-')[0]]}.md")
            labels[lab] = p.name
    refs = reference_entries()
    scanned = 0
    for path in files_to_scan():
        text = read(path)
        if text is None:
            continue
        scanned += 1
        rel = os.path.relpath(path, ROOT)
        is_markdown = path.endswith(".md")
        for n, line in enumerate(text.splitlines(), 1):
            where = f"{rel}:{n}"
            for rx, why in FORBIDDEN:
                if rx.search(line):
                    problems.append(f"{where}: {why}: {line.strip()[:100]}")
            for m in LABEL_REF.finditer(line):
                lab = f"{m.group(1)}-{m.group(2)}"
                if lab not in labels:
                    problems.append(f"{where}: equation ({lab}) is not defined in docs/{PREFIX[m.group(1)]}.md")
            for m in PAGE.finditer(line):
                name, anchor = m.group(2), m.group(3)
                if name in NOT_DOCS and not m.group(1):
                    continue
                page = pages.get(name)
                if page is None:
                    problems.append(f"{where}: docs/{name}.md does not exist")
                    continue
                if anchor and anchor[1:] not in page.anchors:
                    problems.append(f"{where}: docs/{name}.md has no heading or anchor '{anchor}'")
                rest = line[m.end():]
                s = SECTION_NUMBER.match(rest)
                if s and not page.has_section_number(s.group(1)):
                    problems.append(f"{where}: docs/{name}.md has no section {s.group(1)}")
                if is_markdown:
                    continue  # quotes after links in prose are not section names
                while True:
                    q = QUOTED.match(rest)
                    if not q:
                        break
                    if not q.group(2):
                        problems.append(f"{where}: section name after docs/{name}.md does not end on this line")
                        break
                    if not page.has_section(q.group(1)):
                        problems.append(f"{where}: docs/{name}.md has no section \"{q.group(1)}\"")
                    rest = rest[q.end():]
            if is_markdown:
                for m in LINK.finditer(line):
                    target = m.group(1)
                    if not target or re.match(r"[a-z]+:", target):
                        continue
                    file_part, _, anchor = target.partition("#")
                    dest = os.path.normpath(os.path.join(os.path.dirname(path), file_part)) if file_part else path
                    if not os.path.exists(dest):
                        problems.append(f"{where}: link to {target}: no such file")
                    elif anchor and dest.endswith(".md"):
                        d = pages.get(os.path.basename(dest)[:-3]) if os.path.dirname(dest) == DOCS else \
                            Page("", read(dest) or "")
                        if d is not None and anchor not in d.anchors:
                            problems.append(f"{where}: link to {target}: no such heading")
            for m in AUTHOR_YEAR.finditer(line):
                surname, year = m.group(1).split("\u2013")[0].split("-")[0], m.group(2)
                if not any(normalize(surname) in e and year in e for e in refs):
                    problems.append(f"{where}: '{m.group(0)}' matches no entry of docs/references.md")
    return problems, scanned, len(labels), len(pages)


SELF_TEST_DOC = """# Page

## 1. Panel method

```
x = 1                                                                                     (FB-1)
```
"""
# (cited text, expected problem) pairs: the checker must report every one of them.
SELF_TEST_CASES = [
    ('// see docs/fluidbody.md (FB-1), "Panel method" (FB-1)\n', None),
    ("// see docs/fluidbody.md (FB-2)\n", "equation (FB-2) is not defined"),
    ("// see docs/nosuch.md\n", "docs/nosuch.md does not exist"),
    ('// see docs/fluidbody.md "Time stepping"\n', 'has no section "Time stepping"'),
    ("// see docs/fluidbody.md#2-fluid\n", "no heading or anchor '#2-fluid'"),
    ("// see docs/fluidbody.md Sec. 4\n", "has no section 4"),
    ("// as in seed 000 eq. 47\n", "developers' copy"),
    ("// Nobody 1999 showed it\n", "matches no entry"),
]


def self_test():
    """Runs the checker on a small tree with known defects: a checker that finds nothing there is broken."""
    import tempfile
    global ROOT, DOCS
    saved = ROOT, DOCS
    failures = []
    try:
        for text, expected in SELF_TEST_CASES:
            with tempfile.TemporaryDirectory() as d:
                os.makedirs(os.path.join(d, "docs"))
                os.makedirs(os.path.join(d, "src"))
                for name, body in (("fluidbody.md", SELF_TEST_DOC), ("references.md", "# References\n")):
                    with open(os.path.join(d, "docs", name), "w") as f:
                        f.write(body)
                with open(os.path.join(d, "src", "a.cpp"), "w") as f:
                    f.write(text)
                ROOT, DOCS = d, os.path.join(d, "docs")
                problems = check()[0]
                ok = (not problems) if expected is None else any(expected in p for p in problems)
                if not ok:
                    failures.append(f"self-test: {text.strip()!r}: expected {expected or 'no problem'}, got {problems}")
    finally:
        ROOT, DOCS = saved
    return failures


def main():
    failures = self_test()
    problems, scanned, nlabels, npages = check()
    for p in failures + problems:
        print(p)
    print(f"checked {scanned} files, {nlabels} equation labels in {npages} docs pages: "
          f"{len(problems)} problem(s); self-test {'FAILED' if failures else 'ok'} ({len(SELF_TEST_CASES)} cases)")
    return 1 if problems or failures else 0


if __name__ == "__main__":
    sys.exit(main())
