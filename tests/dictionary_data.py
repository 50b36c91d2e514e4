"""A small file in ECDICT's format, written by the tests: the repository CSV's header and escaping
(``\\n`` for a line break, empty numbers), the release's stardict.db table, and a .zip of either.

The rows follow ECDICT's real shapes (README.md's field table and exchange codes, ecdict.mini.csv's
lines): a verb with its four forms, a past tense with a thin entry of its own, a plural listed only under
its lemma, a phrase, the long-time/longtime/long time family of one ``sw`` key, Chinese senses shared by
several words of different frequency, a word with an English definition, a leading apostrophe.
"""

from __future__ import annotations

import csv
import io
import sqlite3
import zipfile
from pathlib import Path

HEADER = "word,phonetic,definition,translation,pos,collins,oxford,tag,bnc,frq,exchange,detail,audio"

# word, phonetic, definition, translation, pos, collins, oxford, tag, bnc, frq, exchange
ROWS: list[tuple[str, ...]] = [
    (
        "'hood",
        "hʊd",
        "",
        "n. 罩；风帽；（布质）面罩\\nv. 覆盖；用头巾包\\n[网络] 胡德；兜帽；引擎盖",
        "",
        "",
        "",
        "",
        "0",
        "0",
        "",
    ),
    (
        "go",
        "gәu",
        "v. move or proceed\\nn. a time for working after which you will be relieved by someone else",
        "v. 去；走；离开；变成\\nn. 尝试；轮到的机会",
        "v:95/n:5",
        "5",
        "1",
        "zk gk cet4 cet6 ky",
        "33",
        "45",
        "d:gone/p:went/3:goes/i:going/s:goes",
    ),
    ("went", "went", "", "v. go的过去式", "", "", "", "", "1200", "900", "0:go/1:p"),
    ("gone", "gɒn", "a. past", "a. 离去的；死去的\\nv. go的过去分词", "", "", "", "", "900", "800", "0:go/1:d"),
    (
        "mouse",
        "maus",
        "n. any of numerous small rodents",
        "n. 老鼠；鼠标；胆小的人\\nv. 探出；窥探",
        "n:98/v:2",
        "3",
        "1",
        "zk gk cet4",
        "3500",
        "2800",
        "s:mice/p:moused/d:moused/i:mousing/3:mouses",
    ),
    (
        "take",
        "teik",
        "v. carry out",
        "vt. 拿；取；带走\\nn. 镜头",
        "v:90/n:10",
        "5",
        "1",
        "zk gk",
        "60",
        "62",
        "p:took/d:taken/i:taking/3:takes/s:takes",
    ),
    ("take off", "", "", "脱下；起飞；离开；取消", "", "", "", "", "0", "0", ""),
    ("long-time", "'lɒŋtaim", "", "a. 长期的；长时间的", "", "", "", "", "0", "0", ""),
    ("longtime", "'lɒŋtaim", "", "a. 长期的，长久的", "", "", "", "", "19000", "12000", ""),
    (
        "apple",
        "'æpl",
        "n. fruit with red or yellow skin",
        "n. 苹果，苹果树，苹果似的东西；[美俚]炸弹",
        "",
        "3",
        "1",
        "zk gk cet4",
        "2400",
        "1900",
        "s:apples",
    ),
    ("apple tree", "", "", "苹果树", "", "", "", "", "0", "0", ""),
    ("pomme", "pɔm", "", "n. 苹果", "", "", "", "", "0", "0", ""),
    (
        "Polish",
        "'pәuliʃ",
        "a. of or relating to Poland",
        "a. 波兰的；波兰人的\\nn. 波兰语",
        "",
        "",
        "",
        "",
        "8000",
        "9000",
        "",
    ),
    (
        "perceive",
        "pә'si:v",
        "v. to become aware of",
        "vt. 察觉，感觉；理解；认知",
        "",
        "3",
        "1",
        "gk cet4 cet6 ky toefl ielts",
        "3000",
        "3300",
        "d:perceived/p:perceived/3:perceives/i:perceiving",
    ),
    ("back\\\\slash", "", "", "n. 反斜线", "", "", "", "", "0", "0", ""),
    ("GO", "", "", "abbr. 一般命令（General Order）", "", "", "", "", "0", "0", ""),
]


def csv_text(rows: list[tuple[str, ...]] = ROWS) -> str:
    """The CSV as ECDICT's DictCsv.save writes it: a header, csv.writer's quoting, 13 columns."""
    out = io.StringIO(newline="")
    writer = csv.writer(out)
    out.write(HEADER + "\r\n")
    for row in rows:
        writer.writerow([*row, "", ""])
    return out.getvalue()


def write_csv(path: Path, rows: list[tuple[str, ...]] = ROWS) -> Path:
    path.write_text(csv_text(rows), encoding="utf-8", newline="")
    return path


def write_stardict(path: Path, rows: list[tuple[str, ...]] = ROWS) -> Path:
    """The release's stardict.db: stardict.py's table, its text with real line breaks, numbers as integers."""
    db = sqlite3.connect(path)
    db.executescript(
        """
        CREATE TABLE "stardict" (
            "id" INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL UNIQUE,
            "word" VARCHAR(64) COLLATE NOCASE NOT NULL UNIQUE,
            "sw" VARCHAR(64) COLLATE NOCASE NOT NULL,
            "phonetic" VARCHAR(64), "definition" TEXT, "translation" TEXT, "pos" VARCHAR(16),
            "collins" INTEGER DEFAULT(0), "oxford" INTEGER DEFAULT(0), "tag" VARCHAR(64),
            "bnc" INTEGER DEFAULT(NULL), "frq" INTEGER DEFAULT(NULL), "exchange" TEXT, "detail" TEXT, "audio" TEXT
        );
        """
    )
    for word, ph, de, tr, po, co, ox, ta, bn, fr, ex in rows:
        if word == "GO":  # stardict.db's word is unique in any case: go is there already
            continue
        db.execute(
            "INSERT INTO stardict (word, sw, phonetic, definition, translation, pos, collins, oxford, tag, bnc, frq,"
            " exchange) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                word.replace("\\\\", "\\"),
                "".join(c for c in word if c.isalnum()).lower(),
                ph,
                de.replace("\\n", "\n"),
                tr.replace("\\n", "\n"),
                po,
                int(co or 0) or None,
                int(ox or 0) or None,
                ta,
                int(bn or 0),
                int(fr or 0),
                ex,
            ),
        )
    db.commit()
    db.close()
    return path


def write_zip(path: Path, member: Path, name: str) -> Path:
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.write(member, name)
    return path
