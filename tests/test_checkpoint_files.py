"""Which files of a repository a conversion downloads: safetensors only, never pickled weights."""

import json

import pytest

from fanyi.export.checkpoint_files import needed_files, shards
from fanyi.export.errors import ExportError

MARIAN = {
    "config.json",
    "generation_config.json",
    "source.spm",
    "target.spm",
    "vocab.json",
    "tokenizer_config.json",
    "README.md",
    "pytorch_model.bin",
    "tf_model.h5",
    "rust_model.ot",
}


def no_read(name):
    raise AssertionError(f"{name} was read")


def test_a_single_safetensors_file_is_taken_and_the_pickle_beside_it_left():
    files = needed_files(MARIAN | {"model.safetensors"}, no_read)
    assert files[-1] == "model.safetensors"
    assert "pytorch_model.bin" not in files and "tf_model.h5" not in files and "README.md" not in files
    assert {"config.json", "source.spm", "target.spm", "vocab.json"} <= set(files)


def test_a_sharded_checkpoint_takes_its_index_and_each_shard_once():
    index = {
        "weight_map": {
            "a": "model-00002-of-00002.safetensors",
            "b": "model-00001-of-00002.safetensors",
            "c": "model-00001-of-00002.safetensors",
        }
    }
    present = {
        "config.json",
        "tokenizer.json",
        "model.safetensors.index.json",
        "LICENSE",
        "model-00001-of-00002.safetensors",
        "model-00002-of-00002.safetensors",
    }
    files = needed_files(present, lambda name: json.dumps(index).encode())
    assert files[-3:] == [
        "model.safetensors.index.json",
        "model-00001-of-00002.safetensors",
        "model-00002-of-00002.safetensors",
    ]
    assert "LICENSE" in files


def test_pickled_weights_alone_are_refused_before_any_download():
    with pytest.raises(ExportError, match="never opens"):
        needed_files(MARIAN, no_read)


@pytest.mark.parametrize(
    "index",
    [
        b"[]",
        b"{}",
        b"not json",
        json.dumps({"weight_map": {"a": "../x.safetensors"}}).encode(),
        json.dumps({"weight_map": {"a": "model.bin"}}).encode(),
    ],
)
def test_a_shard_index_that_is_not_one_is_refused(index):
    with pytest.raises(ExportError):
        shards(index)


def test_a_shard_the_repository_lacks_is_refused():
    with pytest.raises(ExportError, match="does not have"):
        shards(json.dumps({"weight_map": {"a": "model-1.safetensors"}}).encode(), {"config.json"})
