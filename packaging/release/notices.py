"""A release pack carries its model's licence: the repository's licence file and the notice the licence asks for.

The Tencent HY Community License (§3) and the Gemma Terms of Use (§3.1) let a converted model be
passed on only with a copy of the agreement and a "Notice" text file, and Gemma's with a statement
that the files were modified; Apache-2.0 (§4) asks for a copy of the licence. Both files go into the
pack's manifest, so the archive holds them and installing checks them like any other file.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from fanyi.engine.pack import MANIFEST, file_digest
from fanyi.export.checkpoint_files import LICENSE_FILES
from fanyi.fsutil import atomic_write_text
from fanyi.library.catalog import License

LICENSE_COPY = "MODEL_LICENSE.txt"
NOTICE = "NOTICE.txt"


def notice_text(license_: License, model_id: str, commit: str, copied: bool) -> str:
    lines = [license_.notice, ""] if license_.notice else []
    lines += [
        f"This pack holds {model_id} at commit {commit}, converted to ONNX and quantized by Fanyi's "
        "exporter: its weights and graphs are modified files.",
        f"Licence: {license_.name}, {license_.url}" + (f" (a copy: {LICENSE_COPY})" if copied else ""),
    ]
    return "\n".join(lines) + "\n"


def add_licence_files(pack_dir: Path, hf_dir: Path, license_: License, model_id: str, commit: str) -> list[str]:
    """Copy the repository's licence and write the notice into the pack, listed in its manifest; their names."""
    added = []
    source = next((hf_dir / name for name in LICENSE_FILES if (hf_dir / name).is_file()), None)
    if source is not None:
        shutil.copyfile(source, pack_dir / LICENSE_COPY)
        added.append(LICENSE_COPY)
    if license_.notice or source is not None:
        atomic_write_text(pack_dir / NOTICE, notice_text(license_, model_id, commit, source is not None))
        added.append(NOTICE)
    path = pack_dir / MANIFEST
    manifest = json.loads(path.read_text(encoding="utf-8"))
    manifest["files"].update({name: file_digest(pack_dir / name) for name in added})
    atomic_write_text(path, json.dumps(manifest, indent=2, ensure_ascii=False) + "\n")
    return added
