"""``render.py batch``: the variants file, the clip store, and batches on a real Dask cluster.

The cluster tests start ``dask scheduler`` and two ``dask worker`` processes on 127.0.0.1
(and, for the S3 store, moto's S3 server), as a user would, and tear them down at the end.
They render the tiny fixture sections (tests/fixtures, copied to a temporary folder with two
extra sections: one that sleeps, to kill its worker mid-task, and one that fails for one
variant) at the hidden ``tiny`` quality, and one real section at preview quality for the
frame comparison with ``render``.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import pickle
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = Path(__file__).resolve().parent / "fixtures"
sys.path.insert(0, str(ROOT))

from batch.store import ClipStore, StoreError  # noqa: E402
from batch.variants import VariantError, load_variants  # noqa: E402

BIN = Path(sys.executable).parent


def write(path: Path, text: str, encoding: str = "utf-8") -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(text.encode(encoding))
    return path


# ----------------------------------------------------------------------------- variants file


def test_csv_as_a_spreadsheet_exports_it(tmp_path):
    """Byte-order mark, CRLF, quoted cells with commas and line breaks, blank rows, any column
    order and case, empty cells taking the defaults."""
    f = write(tmp_path / "class.csv",
              "\ufeffName,Lang,Sentence,Follow,Theme\r\n"
              "alice,en,the dog chased the ball and it rolled,it,dark\r\n"
              "\r\n"
              ",,,,\r\n"
              "kenji,ja,猫 が 魚 を 食べた,,light\r\n"
              'bob,en,"the cat, the dog and it",,\r\n'
              "carol,,,,\r\n")
    vs = load_variants(f)
    assert [v.name for v in vs] == ["alice", "kenji", "bob", "carol"]
    alice, kenji, bob, carol = vs
    assert (alice.lang, alice.theme, alice.head.tokens[alice.head.follow]) == ("en", "dark", "it")
    assert (kenji.lang, kenji.theme, kenji.head.tokens) == ("ja", "light", ["猫", "が", "魚", "を", "食べた"])
    assert bob.head.tokens == ["the", "cat,", "the", "dog", "and", "it"] and bob.theme == "dark"
    assert (carol.lang, carol.theme, carol.captions, carol.head) == ("ja", "dark", "burned", None)
    assert kenji.where == "class.csv row 5"  # the row a spreadsheet shows (header = row 1)


def test_csv_semicolons_tabs_and_multiline_cells(tmp_path):
    semi = write(tmp_path / "a.csv", 'name;sentence\nx1;"a b; c"\n')
    assert load_variants(semi)[0].head.tokens == ["a", "b;", "c"]
    tsv = write(tmp_path / "b.tsv", "name\tsentence\ny1\tone two\n")
    assert load_variants(tsv)[0].head.tokens == ["one", "two"]
    multi = write(tmp_path / "c.csv", 'name,sentence\nz1,"one\ntwo three"\nz2,a b\n')
    assert [v.head.tokens for v in load_variants(multi)] == [["one", "two", "three"], ["a", "b"]]


def test_toml_defaults_and_variants(tmp_path):
    spec = write(tmp_path / "specs" / "dog.toml", 'sentence = "the dog chased the ball and it rolled"\n'
                                                  'follow = "ball"\n')
    f = write(tmp_path / "course.toml", """
[defaults]
lang = "en"
theme = "light"

[[variant]]
name = "a"
sentence = "the cat sat"
follow = 1

[[variant]]
name = "b"
lang = "ja"
spec = "specs/dog.toml"
""")
    a, b = load_variants(f)
    assert (a.lang, a.theme, a.head.follow) == ("en", "light", 1)
    assert (b.lang, b.theme, b.spec) == ("ja", "light", spec.resolve())
    assert b.head.tokens[b.head.follow] == "ball"
    assert b.render_args() == ["--lang", "ja", "--theme", "light", "--captions", "burned",
                               "--spec", str(spec.resolve())]


@pytest.mark.parametrize("text, message", [
    ("name,sentence\nok,a b\nbad,one\n", "v.csv row 3 (bad): sentence: need 2 to 12 tokens, got 1"),
    ("name,sentence,lang\nok,a b,en\nx,a b,fr\n", "v.csv row 3 (x): lang 'fr' is not one of ja, en"),
    ("name,theme\nx,blue\n", "v.csv row 2 (x): theme 'blue' is not one of dark, light"),
    ("name,captions\nx,loud\n", "v.csv row 2 (x): captions 'loud' is not one of burned, srt, none"),
    ("name,sentence,follow\nx,the cat sat,dog\n", "v.csv row 2 (x): follow: 'dog' is not a token of the sentence"),
    ("name,sentence\nAlice,a b\n\nalice,c d\n",
     "v.csv row 4 (alice): name already used by v.csv row 2 (Alice); each variant gets its own folder"),
    ("name,sentence\n../up,a b\n", "v.csv row 2: name '../up' cannot be a folder name"),
    ("name,sentence\n.hidden,a b\n", "v.csv row 2: name '.hidden' cannot be a folder name"),
    ("name,sentence\nnul,a b\n", "v.csv row 2: name 'nul' cannot be a folder name"),
    ("name,sentence\n,a b\n", "v.csv row 2: no name"),
    ("name,sentense\nx,a b\n", "v.csv row 1: unknown column 'sentense'"),
    ("sentence\na b\n", "v.csv row 1: no 'name' column"),
    ("name,sentence\nx,a b,extra\n", "v.csv row 2: 3 cells, but the header names 2 columns"),
    ("name,spec\nx,missing.toml\n", "v.csv row 2 (x): "),
    ("name\n", "v.csv: no variants"),
])
def test_bad_rows_are_named(tmp_path, text, message):
    f = write(tmp_path / "v.csv", text)
    with pytest.raises(VariantError) as e:
        load_variants(f)
    assert str(e.value).startswith(message), str(e.value)
    assert "\n" not in str(e.value)


def test_bad_files(tmp_path):
    with pytest.raises(VariantError, match="not UTF-8 text"):
        load_variants(write(tmp_path / "sjis.csv", "name,sentence\nk,猫 が\n", encoding="shift_jis"))
    with pytest.raises(VariantError, match="unknown format"):
        load_variants(write(tmp_path / "v.xlsx", "x"))
    with pytest.raises(VariantError, match="no such file"):
        load_variants(tmp_path / "nope.csv")
    with pytest.raises(VariantError, match=r"t.toml variant 2: unknown key 'colour'"):
        load_variants(write(tmp_path / "t.toml", '[[variant]]\nname="a"\n[[variant]]\nname="b"\ncolour="red"\n'))
    with pytest.raises(VariantError, match=r"\[defaults\]: 'name' cannot have a default"):
        load_variants(write(tmp_path / "u.toml", '[defaults]\nname="a"\n[[variant]]\nsentence="a b"\n'))


# ----------------------------------------------------------------------------- clip store


def _entry(tmp_path: Path) -> dict[str, Path]:
    return {"mp4": write(tmp_path / "src" / "c.mp4", "video" * 100),
            "srt": write(tmp_path / "src" / "c.srt", "1\n00:00:00,000 --> 00:00:01,000\nhi\n")}


def test_local_store_round_trip(tmp_path):
    store = ClipStore(tmp_path / "store")
    key = "0a1b2c3d4e5f"
    assert not store.exists(key) and store.keys() == set()
    stored = store.put(key, _entry(tmp_path), {"duration": 1.0})
    assert store.exists(key) and store.keys() == {key}
    # content-addressed layout, no temporary files left behind
    assert sorted(p.name for p in (tmp_path / "store" / "0a").iterdir()) == [f"{key}.json", f"{key}.mp4", f"{key}.srt"]
    clone = pickle.loads(pickle.dumps(store))  # what a worker receives
    meta = clone.get(key, tmp_path / "got")
    assert meta == stored and meta["duration"] == 1.0
    assert (tmp_path / "got" / f"{key}.mp4").read_bytes() == (tmp_path / "src" / "c.mp4").read_bytes()
    assert meta["files"]["mp4"]["sha256"] == hashlib.sha256(b"video" * 100).hexdigest()


def test_store_entry_without_meta_does_not_exist_and_corruption_is_caught(tmp_path):
    store = ClipStore(tmp_path / "store")
    key = "ff00ff00ff00"
    (tmp_path / "store" / "ff").mkdir(parents=True)
    shutil.copy(_entry(tmp_path)["mp4"], tmp_path / "store" / "ff" / f"{key}.mp4")  # a worker died here
    assert not store.exists(key) and store.keys() == set()
    store.put(key, _entry(tmp_path), {})
    (tmp_path / "store" / "ff" / f"{key}.mp4").write_bytes(b"bit rot")
    with pytest.raises(StoreError, match="does not match its digest"):
        store.get(key, tmp_path / "got")
    assert not (tmp_path / "got" / f"{key}.mp4").exists()
