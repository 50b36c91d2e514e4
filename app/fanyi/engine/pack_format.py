"""What a model pack is on disk, below any family: file names, the format version, checksums, the error.

A module of its own so that the families (which describe their manifests and open their sessions)
and ModelPack (which checks a manifest against its family) can both use it.
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

# 2: the decoder also returns log-probabilities and each row's top ids (see export/transformer_graphs.py)
# 3: the decoder's self-attention cache is a buffer written in place and read through a beam table
#    (cache_indirection); logits padded to whole top-id blocks; log-probabilities only when asked for
# 4: an int8 output projection's kernel takes one scale (<weight>_common), and each column's share of it
#    (<weight>_share) is applied after it (see export/graph.py, wide_int8_matmul)
FORMAT_VERSION = 4
# what this engine opens: a version 3 pack differs only in how its output projection applies its scales
READABLE_FORMATS = (3, 4)
MANIFEST = "manifest.json"
SHARED_DATA = "shared.bin"
INT8_WEIGHT_SUFFIX = ".weight_int8"  # an int8 weight in shared.bin; its scales follow as <name>_scale
INT8_SCALE_SUFFIX = "_scale"
INT8_COMMON_SUFFIX = "_common"  # a wide int8 weight's one kernel scale, in shared.bin beside its scales
INT8_SHARE_SUFFIX = "_share"  # and each column's scale divided by it
TENSOR_ITEM_BYTES = {"float32": 4, "float16": 2, "float64": 8, "int8": 1, "uint8": 1, "int32": 4, "int64": 8, "bool": 1}


class PackError(Exception):
    """A pack that cannot be used; the message names the folder or file and says what is wrong."""


def file_digest(path: Path) -> dict[str, Any]:
    h = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            h.update(block)
    return {"sha256": h.hexdigest(), "size": path.stat().st_size}
