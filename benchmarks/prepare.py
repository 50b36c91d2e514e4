"""Builds (or reuses) every model folder the benchmark loads, all from one random-weight HF folder.

    python benchmarks/prepare.py [--work /tmp/fanyi-bench]
    python benchmarks/prepare.py --many-to-many [--tiny] [--work /tmp/fanyi-bench]

The first also builds the copying model of the document-throughput benchmark (document_model.py)
with its int8 pack and CTranslate2 conversion. The second form builds the mBART-50 and NLLB-600M
folders instead (many_to_many_config.py), each
with our int8 pack and CTranslate2's int8 conversion, in WORK/m2m-<model>[-tiny]/.

A folder is reused when its stamp file says it was built from the same HF weights (and, for our
packs, by the same exporter source: app/fanyi/export/ changes while the engine is being tuned, and
a stale pack would benchmark yesterday's graphs); otherwise it is rebuilt.
"""

from __future__ import annotations

import argparse
import hashlib
import shutil
from collections.abc import Callable
from pathlib import Path

from document_model import build_copy_folder
from many_to_many_config import MODELS, build_folder
from opus_mt_config import build_opus_mt_sized_folder

HF = "hf-opus-mt-en-zh-random"
COPY_HF = "hf-opus-mt-en-zh-copy"  # the document-throughput model (document_model.py)


def exporter_fingerprint() -> str:
    """Hash of the exporter's source."""
    import fanyi.export

    digest = hashlib.sha256()
    for path in sorted(Path(fanyi.export.__file__).parent.glob("*.py")):
        digest.update(path.name.encode() + path.read_bytes())
    return digest.hexdigest()[:16]


def weights_fingerprint(hf: Path) -> str:
    stat = (hf / "model.safetensors").stat()
    return f"{stat.st_size}-{stat.st_mtime_ns}"


def pack_opens(pack: Path) -> bool:
    """The engine may have moved to a new pack format version without the exporter source changing."""
    from fanyi.engine.pack import ModelPack, PackError

    try:
        ModelPack.open(pack)
    except PackError:
        return False
    return True


def build(
    out: Path, fingerprint: str, make: Callable[[Path], None], usable: Callable[[Path], bool] = lambda _: True
) -> None:
    """Runs make(tmp) unless out is stamped with fingerprint; out appears only when complete."""
    stamp = out.parent / f"{out.name}.stamp"
    if out.exists() and stamp.exists() and stamp.read_text() == fingerprint and usable(out):
        return
    print(f"building {out.name}", flush=True)
    tmp = out.with_name(out.name + ".tmp")
    for path in (tmp, out):
        shutil.rmtree(path, ignore_errors=True)
    make(tmp)
    tmp.rename(out)
    stamp.write_text(fingerprint)


def pack_maker(hf: Path, quantize: str, name: str = "opus-mt-en-zh-random") -> Callable[[Path], None]:
    def make(tmp: Path) -> None:
        from fanyi.export.convert import export_pack

        export_pack(hf, tmp, quantize=quantize, name=f"{name}-{quantize}")

    return make


def ct2_maker(hf: Path, quantization: str | None) -> Callable[[Path], None]:
    def make(tmp: Path) -> None:
        import ctranslate2

        ctranslate2.converters.TransformersConverter(str(hf)).convert(str(tmp), quantization=quantization)

    return make


def optimum_fp32_maker(hf: Path) -> Callable[[Path], None]:
    def make(tmp: Path) -> None:
        from optimum.onnxruntime import ORTModelForSeq2SeqLM
        from transformers import MarianTokenizer

        ORTModelForSeq2SeqLM.from_pretrained(str(hf), export=True).save_pretrained(str(tmp))
        MarianTokenizer.from_pretrained(str(hf)).save_pretrained(str(tmp))

    return make


def optimum_int8_maker(fp32: Path) -> Callable[[Path], None]:
    """Dynamic int8 of every ONNX file, per channel; avx512_vnni matches this CPU's flags."""

    def make(tmp: Path) -> None:
        from optimum.onnxruntime import ORTQuantizer
        from optimum.onnxruntime.configuration import AutoQuantizationConfig

        config = AutoQuantizationConfig.avx512_vnni(is_static=False, per_channel=True)
        for onnx_file in sorted(fp32.glob("*.onnx")):
            ORTQuantizer.from_pretrained(str(fp32), file_name=onnx_file.name).quantize(
                save_dir=str(tmp), quantization_config=config
            )
        # The quantizer writes *_quantized.onnx; ORTModelForSeq2SeqLM looks for the fp32 file names.
        for q in tmp.glob("*_quantized.onnx"):
            q.rename(tmp / q.name.replace("_quantized", ""))
        for extra in fp32.iterdir():
            if not extra.name.endswith((".onnx", ".onnx_data")) and not (tmp / extra.name).exists():
                shutil.copy2(extra, tmp / extra.name)

    return make


def prepare(work: Path) -> Path:
    work.mkdir(parents=True, exist_ok=True)
    hf = build_opus_mt_sized_folder(work / HF)
    weights = weights_fingerprint(hf)
    build(work / "ct2-float32", weights, ct2_maker(hf, None))
    build(work / "ct2-int8", weights, ct2_maker(hf, "int8"))
    build(work / "optimum-fp32", weights, optimum_fp32_maker(hf))
    build(work / "optimum-int8", weights, optimum_int8_maker(work / "optimum-fp32"))
    copy = build_copy_folder(work / COPY_HF, hf)
    build(work / "ct2-copy-int8", weights_fingerprint(copy), ct2_maker(copy, "int8"))
    ours_packs(work)
    return hf


def ours_packs(work: Path) -> None:
    """Fanyi's packs of the models prepare() built, exported again where the exporter changed since.

    paired.py and instructions.py call it too: their "ours" is the working tree's engine, and a pack
    the exporter of an earlier commit wrote would time that commit's graphs with it."""
    exporter = exporter_fingerprint()
    hf, copy = work / HF, work / COPY_HF
    for folder, source, quantize, name in (
        ("pack-none", hf, "none", "opus-mt-en-zh-random"),
        ("pack-int8", hf, "int8", "opus-mt-en-zh-random"),
        ("pack-copy-int8", copy, "int8", "opus-mt-en-zh-copy"),
    ):
        fingerprint = f"{weights_fingerprint(source)}-{exporter}"
        build(work / folder, fingerprint, pack_maker(source, quantize, name), pack_opens)


def many_to_many_dir(work: Path, key: str, tiny: bool) -> Path:
    return work / f"m2m-{key}{'-tiny' if tiny else ''}"


def prepare_many_to_many(work: Path, tiny: bool) -> dict[str, Path]:
    """For each many-to-many model: its random-weight HF folder, our int8 pack and CT2's int8 conversion."""
    folders = {}
    for key, model in MODELS.items():
        folder = many_to_many_dir(work, key, tiny)
        folder.mkdir(parents=True, exist_ok=True)
        print(f"preparing {model.title}{' (tiny)' if tiny else ''} in {folder}", flush=True)
        hf = build_folder(folder / "hf", model, tiny)
        weights = weights_fingerprint(hf)
        build(folder / "pack-int8", f"{weights}-{exporter_fingerprint()}", pack_maker(hf, "int8", key), pack_opens)
        build(folder / "ct2-int8", weights, ct2_maker(hf, "int8"))
        folders[key] = folder
    return folders


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--work", default="/tmp/fanyi-bench")
    parser.add_argument("--many-to-many", action="store_true", help="the mBART-50 and NLLB-600M models instead")
    parser.add_argument("--tiny", action="store_true", help="with --many-to-many: tiny shapes, a smoke test")
    args = parser.parse_args()
    if args.many_to_many:
        prepare_many_to_many(Path(args.work), args.tiny)
    else:
        prepare(Path(args.work))


if __name__ == "__main__":
    main()
