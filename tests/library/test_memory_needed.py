"""fanyi.library.memory: one estimate of the memory a pack needs, for a catalog entry and an installed pack alike."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from fanyi.engine.pack import ModelPack
from fanyi.library import catalog, memory

MiB = 1 << 20
# HY-MT1.5-1.8B's configuration: 32 layers, 4 key/value heads of 128 dimensions
HY_MT = {"type": "hunyuan", "layers": 32, "kv_heads": 4, "head_dim": 128, "max_positions": 8192}


def manifest(architecture: dict, files_bytes: int, **extra) -> dict:
    return {
        "architecture": architecture,
        "files": {
            "shared.bin": {"size": files_bytes - 1000, "sha256": "0" * 64},
            "tokenizer.json": {"size": 1000, "sha256": "0" * 64},
        },
        **extra,
    }


def test_a_translation_llm_needs_its_files_a_2k_token_cache_and_the_runtime():
    pack = manifest(HY_MT, 1_250_000_000)
    # keys and values, float32, of every layer: 128 KiB a token
    assert memory.kv_cache_bytes(pack) == 2 * 32 * 4 * 128 * 4 * 2048 == 256 * MiB
    assert memory.memory_needed(pack) == int(1_250_000_000 * memory.WEIGHTS_FACTOR) + 256 * MiB + memory.RUNTIME_BYTES
    # a model of fewer positions than the context: its cache stops there
    assert memory.kv_cache_bytes(manifest({**HY_MT, "max_positions": 512}, 1)) == 64 * MiB


def test_an_encoder_decoder_cache_holds_the_target_and_the_source_for_each_beam(tiny_pack):
    pack = ModelPack.open(tiny_pack).manifest
    arch, beams = pack["architecture"], pack["generation"]["num_beams"] or memory.DEFAULT_BEAMS
    per_token = 2 * 2 * arch["decoder_layers"] * arch["heads"] * arch["head_dim"] * 4
    assert memory.kv_cache_bytes(pack) == per_token * min(2048, arch["max_positions"]) * beams > 0
    files = sum(f["size"] for f in pack["files"].values())
    assert (
        memory.memory_needed(pack)
        == int(files * memory.WEIGHTS_FACTOR) + memory.kv_cache_bytes(pack) + memory.RUNTIME_BYTES
    )


def test_a_catalog_entry_is_judged_by_what_the_catalog_says_of_it():
    from test_catalog import ENTRY, doc

    raw = doc(kv_cache_bytes=256 * MiB)
    entry = catalog.parse(json.dumps(raw), "test").packs[0]
    expected = int(ENTRY["archive"]["unpacked_size"] * memory.WEIGHTS_FACTOR) + 256 * MiB + memory.RUNTIME_BYTES
    assert memory.memory_needed(entry) == expected
    # a catalog from before the estimate: the files and the runtime
    old = catalog.parse(json.dumps(doc()), "test").packs[0]
    assert memory.memory_needed(old) == expected - 256 * MiB


@pytest.mark.skipif(not Path("/proc/meminfo").is_file(), reason="compared with Linux's /proc/meminfo")
def test_physical_memory_is_what_the_system_says():
    found = memory.physical_memory()
    with open("/proc/meminfo", encoding="ascii") as f:
        total_kib = int(next(line for line in f if line.startswith("MemTotal:")).split()[1])
    # sysconf counts whole pages of the same memory /proc/meminfo reports in KiB
    assert found is not None and abs(found - total_kib * 1024) < 64 * MiB
