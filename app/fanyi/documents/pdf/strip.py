"""Removing chosen glyphs from a page's content streams; every other operator is written back as it was.

The streams are parsed with pikepdf (qpdf's parser) and compared, operator by operator, with what
pdfminer interpreted (``Origins.digests``): a stream where the two disagree is not touched, nor is
an operation whose codes cannot be told apart, and the glyphs drawn there are reported as not
removable (the writer then leaves their paragraph as it was rather than drawing over it).

A glyph is removed from its ``Tj``/``TJ``/``'``/``"`` by turning the operation into a ``TJ``
whose strings keep the other glyphs and whose numbers move the pen as far as the removed glyph
did, so nothing after it moves. Glyphs in a form XObject are removed from a copy of the form made
for that one ``Do`` (the original may be drawn elsewhere, where its text stays), named anew in the
resources of the stream that draws it; a page's content becomes one new stream. Nothing is ever
redrawn from a parsed page: operators the parser does not interpret (shadings, inline images,
marked content) go back byte for byte as operands and operator.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field

import pikepdf

from .interpret import Origins, Path, operator_digest

_SHOWING = {"Tj", "TJ", "'", '"'}
_NOT_COPIED = {"/Length", "/Filter", "/DecodeParms", "/DL"}


@dataclass
class _Stream:
    """One parsed content stream: the page's, or a form XObject's as drawn through ``path``."""

    path: Path
    instructions: list[pikepdf.ContentStreamInstruction | pikepdf.ContentStreamInlineImage]
    owner: pikepdf.Object  # the page's dictionary or the form's stream
    resources: pikepdf.Dictionary | None
    edits: dict[int, set[int]] = field(default_factory=lambda: defaultdict(set))  # op → positions of its glyphs


def operator_name(instruction: pikepdf.ContentStreamInstruction | pikepdf.ContentStreamInlineImage) -> str:
    if isinstance(instruction, pikepdf.ContentStreamInlineImage):
        return "EI"  # pdfminer's keyword for an inline image; qpdf's is "INLINE IMAGE"
    return bytes(instruction.operator.unparse()).decode("utf-8", "ignore")  # as pdfminer's keyword_name reads it


class Stripper:
    """Removal of glyphs from one page of ``pdf``, told by their ``Glyph.index`` in ``origins``."""

    def __init__(self, pdf: pikepdf.Pdf, page: pikepdf.Page, origins: Origins, prefix: str) -> None:
        self._pdf = pdf
        self._page = page
        self._origins = origins
        self._prefix = prefix
        self._streams: dict[Path, _Stream | None] = {}
        self._ops: dict[tuple[Path, int], tuple[int, int]] = {}  # (path, op) → first glyph index, count
        for index in range(len(origins.op_of)):
            key = origins.where(index)
            first, count = self._ops.get(key, (index, 0))
            self._ops[key] = (first, count + 1)
        self._verdicts: dict[tuple[Path, int], bool] = {}
        self._copies = 0

    def stream(self, path: Path) -> _Stream | None:
        """The stream drawn through ``path``, parsed, or None when it cannot be parsed or pdfminer saw it otherwise."""
        if path not in self._streams:
            self._streams[path] = self._parse(path)
        return self._streams[path]

    def _parse(self, path: Path) -> _Stream | None:
        if not path:
            owner: pikepdf.Object = self._page.obj
            resources = self._page.obj.get("/Resources")
        else:
            parent = self.stream(path[:-1])
            if parent is None or path[-1] >= len(parent.instructions):
                return None
            instruction = parent.instructions[path[-1]]
            if operator_name(instruction) != "Do" or parent.resources is None:
                return None
            xobjects = parent.resources.get("/XObject")
            name = instruction.operands[0] if instruction.operands else None
            if not isinstance(xobjects, pikepdf.Dictionary) or not isinstance(name, pikepdf.Name):
                return None
            form = xobjects.get(name)
            if not isinstance(form, pikepdf.Stream):
                return None
            owner = form
            resources = owner.get("/Resources", parent.resources)
        warned = len(self._pdf.get_warnings())
        try:
            instructions = list(pikepdf.parse_content_stream(self._page if not path else owner))
        except (pikepdf.PdfError, ValueError, TypeError):
            return None
        if len(self._pdf.get_warnings()) > warned:  # qpdf read past damage (a stream cut short): not ours to edit
            return None
        if operator_digest([operator_name(i) for i in instructions]) != self._origins.digests.get(path):
            return None
        if not isinstance(resources, pikepdf.Dictionary):
            resources = None
        return _Stream(path, instructions, owner, resources)

    def _splittable(self, path: Path, op: int) -> bool:
        key = (path, op)
        verdict = self._verdicts.get(key)
        if verdict is None:
            verdict = self._verdicts[key] = self._check(path, op)
        return verdict

    def _check(self, path: Path, op: int) -> bool:
        stream = self.stream(path)
        if stream is None or op >= len(stream.instructions):
            return False
        instruction = stream.instructions[op]
        if operator_name(instruction) not in _SHOWING:
            return False
        first, count = self._ops[(path, op)]
        lengths = self._origins.code_bytes[first : first + count]
        adjusts = self._origins.adjust[first : first + count]
        if 0 in lengths or any(not math.isfinite(a) for a in adjusts):
            return False
        return sum(lengths) == sum(len(bytes(s)) for s in _strings(instruction))

    def removable(self, glyphs: Iterable[int]) -> bool:
        """Whether every one of these glyphs can be removed."""
        return all(self._splittable(*self._origins.where(index)) for index in glyphs)

    def remove(self, glyphs: Iterable[int]) -> None:
        """Mark glyphs for removal (each must be ``removable``); ``apply`` rewrites the streams."""
        for index in glyphs:
            path, op = self._origins.where(index)
            stream = self.stream(path)
            assert stream is not None
            stream.edits[op].add(index - self._ops[(path, op)][0])

    def apply(self) -> list[pikepdf.ContentStreamInstruction | pikepdf.ContentStreamInlineImage] | None:
        """Rewrite what was marked; the page's new instructions when it has any edits (None when none)."""
        edited = {path for path, stream in self._streams.items() if stream is not None and stream.edits}
        if not edited:
            return None
        touched = {path[:depth] for path in edited for depth in range(len(path) + 1)}
        return self._rewrite((), touched)

    def _rewrite(
        self, path: Path, touched: set[Path]
    ) -> list[pikepdf.ContentStreamInstruction | pikepdf.ContentStreamInlineImage]:
        stream = self.stream(path)
        assert stream is not None
        first_glyph = {op: self._ops[(path, op)][0] for op in stream.edits}
        out: list[pikepdf.ContentStreamInstruction | pikepdf.ContentStreamInlineImage] = []
        resources = stream.resources
        for number, instruction in enumerate(stream.instructions):
            if number in stream.edits:
                out += self._without(instruction, first_glyph[number], stream.edits[number])
            elif path + (number,) in touched:
                resources, name = self._form_copy(path + (number,), touched, resources)
                out.append(pikepdf.ContentStreamInstruction([name], pikepdf.Operator("Do")))
            else:
                out.append(instruction)
        if resources is not stream.resources:
            if path:
                stream.owner.Resources = resources  # the owner here is already this Do's own copy
            else:
                self._page.obj.Resources = resources
        return out

    def _form_copy(
        self, path: Path, touched: set[Path], resources: pikepdf.Dictionary | None
    ) -> tuple[pikepdf.Dictionary, pikepdf.Name]:
        """A copy of the form drawn through ``path`` with its glyphs removed, named in (a copy of) ``resources``."""
        form = self.stream(path)
        assert form is not None and resources is not None
        original = form.owner
        copy = pikepdf.Stream(self._pdf, b"")
        for key, value in original.items():
            if key not in _NOT_COPIED:
                copy[key] = value
        form.owner = copy  # nested forms name their copies in this copy's resources
        instructions = self._rewrite(path, touched)
        copy.write(pikepdf.unparse_content_stream(instructions))
        fresh = pikepdf.Dictionary({key: value for key, value in resources.items()})
        xobjects = resources.get("/XObject")
        named = (
            pikepdf.Dictionary({k: v for k, v in xobjects.items()})
            if isinstance(xobjects, pikepdf.Dictionary)
            else pikepdf.Dictionary()
        )
        self._copies += 1
        name = pikepdf.Name(f"/{self._prefix}X{self._copies}")
        named[name] = copy
        fresh.XObject = named
        return fresh, name

    def _without(
        self,
        instruction: pikepdf.ContentStreamInstruction | pikepdf.ContentStreamInlineImage,
        first: int,
        gone: set[int],
    ) -> list[pikepdf.ContentStreamInstruction]:
        """The text-showing ``instruction`` as a TJ without the glyphs at positions ``gone``."""
        assert isinstance(instruction, pikepdf.ContentStreamInstruction)
        operator = str(instruction.operator)
        operands = list(instruction.operands)
        before: list[pikepdf.ContentStreamInstruction] = []
        if operator == '"':
            before = [
                pikepdf.ContentStreamInstruction([operands[0]], pikepdf.Operator("Tw")),
                pikepdf.ContentStreamInstruction([operands[1]], pikepdf.Operator("Tc")),
            ]
        if operator in ("'", '"'):
            before.append(pikepdf.ContentStreamInstruction([], pikepdf.Operator("T*")))
        items = list(operands[0]) if operator == "TJ" else [operands[-1]]
        lengths = self._origins.code_bytes
        adjusts = self._origins.adjust
        out: list[object] = []
        position = 0
        for item in items:
            if not isinstance(item, pikepdf.String):
                _number(out, float(item))
                continue
            data = bytes(item)
            kept = b""
            offset = 0
            while offset < len(data):
                size = lengths[first + position]
                if position in gone:
                    if kept:
                        out.append(pikepdf.String(kept))
                        kept = b""
                    _number(out, adjusts[first + position])
                else:
                    kept += data[offset : offset + size]
                offset += size
                position += 1
            if kept:
                out.append(pikepdf.String(kept))
        return [*before, pikepdf.ContentStreamInstruction([pikepdf.Array(out)], pikepdf.Operator("TJ"))]


def _number(out: list[object], value: float) -> None:
    """Append a TJ adjustment, added to the one before it when the array ends with a number."""
    if out and isinstance(out[-1], float):
        out[-1] = round(out[-1] + value, 4)
    else:
        out.append(round(value, 4))


def _strings(instruction: pikepdf.ContentStreamInstruction | pikepdf.ContentStreamInlineImage) -> list[pikepdf.String]:
    if not isinstance(instruction, pikepdf.ContentStreamInstruction):
        return []
    operands = list(instruction.operands)
    if str(instruction.operator) == "TJ":
        return [item for item in (operands[0] if operands else []) if isinstance(item, pikepdf.String)]
    return [operand for operand in operands[-1:] if isinstance(operand, pikepdf.String)]
