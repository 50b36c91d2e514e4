"""README.md is the front door (at most 250 lines, the two commands CI runs) and docs/ the manual: every relative
link and image in them points to a file that exists, and every #anchor to a heading of its page, as GitHub
makes anchors of headings."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
DOCS = ROOT / "docs"
PAGES = [README, *sorted(DOCS.glob("*.md"))]
README_MAX_LINES = 250

FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
# [text](target) and ![alt](target); the text may hold one level of brackets and run over lines
LINK = re.compile(r"!?\[((?:[^\[\]]|\[[^\[\]]*\])*)\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
CODE_SPAN = re.compile(r"(`+)(?:(?!\1).)+?\1", re.DOTALL)
HEADING = re.compile(r"^ {0,3}(#{1,6})\s+(.*?)\s*#*\s*$")
# github-slugger (what github.com uses): dropped are these Unicode categories, unless the character is a letter
DROPPED = {"No", "Pe", "Pf", "Pi", "Ps", "Po", "Pd", "Sm", "Sc", "Sk", "So", "Cc", "Co", "Cf", "Cn", "Zs", "Zl", "Zp"}


def prose(text: str) -> str:
    """The text outside fenced code blocks, fences and code lines blanked (line numbers kept)."""
    out, fence = [], ""
    for line in text.splitlines():
        if m := FENCE.match(line):
            marker = m.group(1)
            if not fence:
                fence = marker
            elif marker[0] == fence[0] and len(marker) >= len(fence):
                fence = ""
            out.append("")
            continue
        out.append("" if fence else line)
    return "\n".join(out)


def slug(heading: str) -> str:
    """GitHub's anchor of a heading's text: lower case, spaces to hyphens, punctuation and symbols dropped."""
    text = re.sub(r"!?\[((?:[^\[\]]|\[[^\[\]]*\])*)\]\([^)]*\)", r"\1", heading)  # a link counts by its text
    kept = []
    for ch in text.lower():
        if ch == " ":
            kept.append("-")
        elif ch == "-" or ch.isalpha() or unicodedata.category(ch) not in DROPPED:
            kept.append(ch)
    return "".join(kept)


def anchors(page: Path) -> set[str]:
    """Every heading's anchor; a repeated one gets -1, -2, … as on GitHub."""
    seen: dict[str, int] = {}
    for line in prose(page.read_text(encoding="utf-8")).splitlines():
        if m := HEADING.match(line):
            base = anchor = slug(m.group(2))
            while anchor in seen:
                seen[base] += 1
                anchor = f"{base}-{seen[base]}"
            seen[anchor] = 0
    return set(seen)


def links(page: Path) -> Iterator[tuple[int, str]]:
    """(line, target) of every link and image outside code."""
    text = prose(page.read_text(encoding="utf-8"))
    text = CODE_SPAN.sub(lambda m: re.sub(r"[^\n]", " ", m.group(0)), text)
    for m in LINK.finditer(text):
        yield text.count("\n", 0, m.start()) + 1, m.group(2)


def broken(page: Path, root: Path = ROOT) -> list[str]:
    """What is wrong with the relative links of `page`, one line each (named from `root`)."""
    problems = []
    for line, target in links(page):
        if re.match(r"^[a-z][a-z0-9+.-]*:", target, re.IGNORECASE):  # https:, mailto:: not ours to check
            continue
        path, _, anchor = target.partition("#")
        dest = (page.parent / path).resolve() if path else page
        where = f"{page.relative_to(root)}:{line}: {target}"
        if not dest.exists():
            problems.append(f"{where}: no such file")
        elif anchor and dest.suffix == ".md" and anchor not in anchors(dest):
            problems.append(f"{where}: no heading with that anchor in {dest.name}")
    return problems


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_relative_link_and_image_points_to_a_file_and_every_anchor_to_a_heading(page):
    assert broken(page) == []


def test_the_readme_is_a_front_door_of_at_most_250_lines():
    lines = README.read_text(encoding="utf-8").splitlines()
    assert len(lines) <= README_MAX_LINES, f"README.md has {len(lines)} lines; the manual's place is docs/"


def test_the_readme_states_the_two_commands():
    """.ci/run runs the test command the README states; `make run` starts the app."""
    text = README.read_text(encoding="utf-8")
    block = re.search(r"^```sh\n(.*?)^```", text, re.MULTILINE | re.DOTALL)
    assert block is not None
    commands = [line.split("#")[0].strip() for line in block.group(1).splitlines()]
    assert commands == ["make run", "make test"]
    assert "make test" in (ROOT / ".ci" / "run").read_text(encoding="utf-8")


def test_every_page_of_the_manual_is_in_its_index():
    linked = {(DOCS / target.partition("#")[0]).resolve() for _, target in links(DOCS / "README.md")}
    assert [p.name for p in PAGES[1:] if p.name != "README.md" and p.resolve() not in linked] == []


def test_anchors_follow_github(tmp_path):
    assert slug("Traditional Chinese (繁體)") == "traditional-chinese-繁體"
    assert slug("Engine (`fanyi.engine`)") == "engine-fanyiengine"
    assert slug('Three words for "pack"') == "three-words-for-pack"
    assert (
        slug("MarianMT (opus-mt-en-zh's shape) against CTranslate2")
        == "marianmt-opus-mt-en-zhs-shape-against-ctranslate2"
    )
    assert slug("[Status](status.md) in brief") == "status-in-brief"
    assert slug("A — B") == "a--b"  # the dash is dropped, both spaces stay
    page = tmp_path / "page.md"
    page.write_text("# Fanyi\n## Notes\n## Notes\n```sh\n# not a heading\n```\n", encoding="utf-8")
    assert anchors(page) == {"fanyi", "notes", "notes-1"}


def test_a_broken_link_an_image_or_an_anchor_is_found(tmp_path):
    (tmp_path / "there.md").write_text("# There\n", encoding="utf-8")
    page = tmp_path / "page.md"
    page.write_text(
        "# Page\n[ok](there.md#there) [self](#page) [web](https://example.org/x.md#nothing)\n"
        "![gone](pictures/gone.png) [bad anchor](there.md#elsewhere)\n"
        "`[in code](missing.md)`\n```\n[in a block](missing.md)\n```\n[over\nlines](#nowhere)\n",
        encoding="utf-8",
    )
    assert broken(page, tmp_path) == [
        "page.md:3: pictures/gone.png: no such file",
        "page.md:3: there.md#elsewhere: no heading with that anchor in there.md",
        "page.md:8: #nowhere: no heading with that anchor in page.md",
    ]
