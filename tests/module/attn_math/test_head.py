"""attn_math.head: reading, writing and validating heads; sentence heads.

Every invalid input must raise :class:`HeadError` (never a bare KeyError, IndexError
or numpy error) with a one-line message that names the offending field.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tomllib
from pathlib import Path

import numpy as np
import pytest

from attn_math import Story, lexicon
from attn_math.head import (
    DEFAULT_HEAD_PATH,
    MAX_TOKENS,
    Head,
    HeadError,
    default_head,
    head_from_dict,
    load_head,
    sentence_head,
)
from scenes.registry import load_story, story_of
from scenes.sections.s07_long_key_trap.derived import long_key_trap
from scenes.sections.s21_inside_the_hull.derived import hull
from tests.support import ROOT
from words import config

DEFAULT_TOKENS = ["the", "cat", "ate", "and", "it", "ran"]


def same_figures(a: Story, b: Story) -> None:
    """Every figure of ``a`` and ``b`` identical: same names, same text, same value."""
    assert a.figures.keys() == b.figures.keys()
    for sec in a.figures:
        assert a.figures[sec].keys() == b.figures[sec].keys(), sec
        for name, fa in a.figures[sec].items():
            fb = b.figures[sec][name]
            assert fa.text == fb.text, (sec, name)
            np.testing.assert_array_equal(np.asarray(fa.value), np.asarray(fb.value),
                                          err_msg=f"{sec}.{name}")


def same_roles(a: Story, b: Story) -> None:
    assert a.roles_json() == b.roles_json()


def write(tmp_path: Path, text: str, name: str = "head.toml") -> Path:
    p = tmp_path / name
    p.write_text(text, encoding="utf-8")
    return p


def default_toml_with(**overrides) -> str:
    """The default head file with some top-level keys replaced (values are TOML text)."""
    data = tomllib.loads(DEFAULT_HEAD_PATH.read_text(encoding="utf-8"))
    lines = []
    for k, v in data.items():
        if k in overrides:
            continue
        lines.append(f"{k} = {json.dumps(v)}")
    for k, v in overrides.items():
        if v is not None:
            lines.append(f"{k} = {v}")
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------- the default head


def test_default_head_file():
    h = load_head(DEFAULT_HEAD_PATH)
    assert h.tokens == DEFAULT_TOKENS
    assert h.follow == 4 and h.tokens[h.follow] == "it"
    assert h.embeddings.shape == (6, 2)
    for M in (h.W_Q, h.W_K, h.W_V):
        assert M.shape == (2, 2)
        assert abs(np.linalg.det(M)) > 1e-3
    # the file's numbers, read without attn_math
    raw = tomllib.loads(DEFAULT_HEAD_PATH.read_text(encoding="utf-8"))
    np.testing.assert_array_equal(h.embeddings, np.array(raw["embeddings"]))
    np.testing.assert_array_equal(h.W_Q, np.array(raw["W_Q"]))


def test_default_head_is_a_fresh_copy():
    a = default_head()
    a.embeddings[0, 0] = 99.0
    a.W_Q[0, 0] = 99.0
    a.tokens[0] = "dog"
    b = default_head()
    assert b.embeddings[0, 0] != 99.0 and b.W_Q[0, 0] != 99.0 and b.tokens[0] == "the"


def test_load_story_of_the_settings_head(tmp_path):
    h = default_head()
    h2 = Head(h.tokens, h.embeddings, h.W_Q, h.W_K, h.W_V, 1)
    p = tmp_path / "other.toml"
    h2.save(p)
    with config.using(config.current().replace(head=p)):
        assert load_story().follow == 1
    assert load_story().follow == 4


# ---------------------------------------------------------------- round trip


def test_round_trip_default(tmp_path):
    h = default_head()
    p = tmp_path / "rt.toml"
    h.save(p)
    assert not (tmp_path / "rt.toml.tmp").exists()
    h2 = load_head(p)
    assert h2.tokens == h.tokens and h2.follow == h.follow
    for name in ("embeddings", "W_Q", "W_K", "W_V"):
        np.testing.assert_array_equal(getattr(h2, name), getattr(h, name))  # bit for bit
    s, s2 = story_of(h), story_of(h2)
    same_figures(s, s2)
    same_roles(s, s2)


def test_round_trip_regauged_with_roles_and_odd_tokens(tmp_path):
    """A head in another gauge, with role overrides and tokens that need escaping."""
    rng = np.random.default_rng(3)
    tokens = ['the', 'cat "tom"', 'back\\slash', 'tab\there', '日本', 'it', 'ran', 'a\u007fb']
    X = rng.normal(size=(len(tokens), 2))
    base = default_head()
    h = Head(tokens, X, base.W_Q, base.W_K, base.W_V, 5,
             {"long_key": 0, "asymmetric_pair": [2, 1], "width_row": 6, "hull_token": 4,
              "winner": 1})
    h = h.regauged(np.array([[1.3, 0.4], [-0.2, 0.8]]), np.array([[0.0, 1.0], [1.0, 0.0]]))
    p = tmp_path / "odd.toml"
    h.save(p)
    tomllib.loads(p.read_text(encoding="utf-8"))  # valid TOML
    h2 = load_head(p)
    assert h2.tokens == tokens
    assert h2.roles == h.roles
    for name in ("embeddings", "W_Q", "W_K", "W_V"):
        np.testing.assert_array_equal(getattr(h2, name), getattr(h, name))
    s, s2 = story_of(h), story_of(h2)
    same_figures(s, s2)
    same_roles(s, s2)
    assert s2.winner == 1 and long_key_trap(s2).long_key == 0 and s2.width_row == 6 and hull(s2).hull_token == 4


def test_save_is_atomic_over_existing(tmp_path):
    p = tmp_path / "h.toml"
    p.write_text("garbage", encoding="utf-8")
    default_head().save(p)
    assert load_head(p).tokens == DEFAULT_TOKENS


# ---------------------------------------------------------------- validation: files


@pytest.mark.parametrize(
    ("overrides", "field"),
    [
        ({"W_Q": "[[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]]"}, "W_Q"),           # 3x2
        ({"W_K": "[[1.0, 0.0, 0.5], [0.0, 1.0, 0.5]]"}, "W_K"),             # 2x3
        ({"W_V": "[1.0, 2.0]"}, "W_V"),                                     # a vector
        ({"W_V": "3.0"}, "W_V"),                                            # a scalar
        ({"W_Q": '[["a", "b"], ["c", "d"]]'}, "W_Q"),                       # not numbers
        ({"W_Q": "[[nan, 0.0], [0.0, 1.0]]"}, "W_Q"),                       # NaN
        ({"W_V": "[[inf, 0.0], [0.0, 1.0]]"}, "W_V"),                       # infinity
        ({"W_K": "[[1.0, 2.0], [2.0, 4.0]]"}, "W_K"),                       # singular
        ({"W_Q": "[[0.0, 0.0], [0.0, 0.0]]"}, "W_Q"),                       # zero matrix
        ({"embeddings": "[[1.0, 2.0]]"}, "embeddings"),                     # too few rows
        ({"embeddings": "[[1, 2], [1, 2], [1, 2], [1, 2], [1, 2], [1, -inf]]"}, "embeddings"),
        ({"embeddings": "[[1, 2], [1, 2], [1, 2], [1, 2], [1, 2], [nan, 1]]"}, "embeddings"),
        ({"embeddings": "[[1, 2], [1, 2], [1, 2], [0, 0], [1, 2], [1, 1]]"}, "embeddings"),
        ({"tokens": '["it"]', "embeddings": "[[1.0, 2.0]]"}, "tokens"),     # < 2 tokens
        ({"tokens": json.dumps(["w"] * (MAX_TOKENS + 1))}, "tokens"),       # > 12 tokens
        ({"tokens": '["the", "", "ate", "and", "it", "ran"]'}, "tokens"),   # empty token
        ({"tokens": '["the", 3, "ate", "and", "it", "ran"]'}, "tokens"),
        ({"tokens": '"the cat ate and it ran"'}, "tokens"),
        ({"follow": "6"}, "follow"),                                       # out of range
        ({"follow": "-1"}, "follow"),
        ({"follow": '"dog"'}, "follow"),                                    # not a token
        ({"follow": "true"}, "follow"),
        ({"follow": "1.5"}, "follow"),
        ({"colour": '"red"'}, "colour"),                                    # unknown key
        ({"tokens": None}, "tokens"),                                       # missing
        ({"sentence": '"the cat ate and it ran"'}, "sentence"),             # both given
    ],
)
def test_invalid_head_file(tmp_path, overrides, field):
    p = write(tmp_path, default_toml_with(**overrides))
    with pytest.raises(HeadError) as e:
        load_head(p)
    msg = str(e.value)
    assert field in msg, msg
    assert "\n" not in msg
    assert msg.startswith("head.toml: "), msg  # the file is named too


@pytest.mark.parametrize(
    ("roles", "field"),
    [
        ('villain = "cat"', "villain"),                       # unknown role
        ('winner = "dog"', "roles.winner"),                   # not a token
        ("winner = 6", "roles.winner"),                       # out of range
        ('long_key = 1.5', "roles.long_key"),
        ('asymmetric_pair = ["cat", "cat"]', "roles.asymmetric_pair"),
        ('asymmetric_pair = ["cat"]', "roles.asymmetric_pair"),
        ('asymmetric_pair = "cat"', "roles.asymmetric_pair"),
        ('asymmetric_pair = ["cat", "dog"]', "roles.asymmetric_pair"),
    ],
)
def test_invalid_roles(tmp_path, roles, field):
    p = write(tmp_path, default_toml_with() + "[roles]\n" + roles + "\n")
    with pytest.raises(HeadError, match=field.replace(".", r"\.")):
        load_head(p)


def test_roles_not_a_table(tmp_path):
    p = write(tmp_path, default_toml_with(roles='"cat"'))
    with pytest.raises(HeadError, match="roles"):
        load_head(p)


def test_unreadable_files(tmp_path):
    with pytest.raises(HeadError, match="no such file"):
        load_head(tmp_path / "missing.toml")
    p = write(tmp_path, "tokens = [\n")
    with pytest.raises(HeadError, match="not valid TOML"):
        load_head(p)
    p = tmp_path / "bin.toml"
    p.write_bytes(b"\xff\xfe\x00garbage")
    with pytest.raises(HeadError):
        load_head(p)


# ---------------------------------------------------------------- validation: constructor


def _default_parts():
    h = default_head()
    return dict(tokens=h.tokens, embeddings=h.embeddings, W_Q=h.W_Q, W_K=h.W_K, W_V=h.W_V,
                follow=h.follow)


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"W_Q": np.ones((3, 2))}, "W_Q"),
        ({"W_V": np.array([[1.0, np.nan], [0.0, 1.0]])}, "W_V"),
        ({"W_K": np.array([[1.0, 1.0], [1.0, 1.0]])}, "W_K"),
        ({"embeddings": np.ones((6, 3))}, "embeddings"),
        ({"embeddings": np.ones((5, 2))}, "embeddings"),
        ({"embeddings": np.full((6, 2), np.inf)}, "embeddings"),
        ({"tokens": ["it"], "embeddings": np.ones((1, 2)), "follow": 0}, "tokens"),
        ({"tokens": ["w"] * 13, "embeddings": np.ones((13, 2))}, "tokens"),
        ({"follow": 6}, "follow"),
        ({"follow": -1}, "follow"),
        ({"follow": "it"}, "follow"),  # the constructor takes positions only
        ({"follow": True}, "follow"),
        ({"roles": {"villain": 1}}, "villain"),
        ({"roles": {"winner": 6}}, "roles.winner"),
        ({"roles": {"long_key": "and"}}, "roles.long_key"),
        ({"roles": {"asymmetric_pair": [1, 1]}}, "roles.asymmetric_pair"),
        ({"roles": {"asymmetric_pair": [1, 9]}}, "roles.asymmetric_pair"),
        ({"roles": {"hull_token": -1}}, "roles.hull_token"),
    ],
)
def test_invalid_head_object(change, field):
    parts = _default_parts() | change
    with pytest.raises(HeadError, match=field.replace(".", r"\.")):
        Head(**parts)


def test_valid_head_object_with_every_role():
    h = Head(**_default_parts(), roles={"follow": 3, "winner": 0, "long_key": 2,
                                        "asymmetric_pair": [5, 0], "width_row": 1,
                                        "hull_token": 3})
    s = story_of(h)
    assert h.follow == s.follow == 3  # roles.follow overrides follow (as documented)
    assert (s.winner, long_key_trap(s).long_key, s.width_row, hull(s).hull_token) == (0, 2, 1, 3)
    assert set(s.asym) == {5, 0}


def test_roles_are_normalised_to_plain_ints():
    roles = {"winner": np.int64(2), "asymmetric_pair": (np.int32(1), 2)}
    h = Head(**_default_parts(), roles=roles)
    assert h.roles == {"winner": 2, "asymmetric_pair": [1, 2]}
    assert all(type(v) is int for v in [h.roles["winner"], *h.roles["asymmetric_pair"]])
    assert roles["asymmetric_pair"] == (1, 2)  # the caller's dict is left alone
    assert "winner = 2" in h.to_toml()


# ---------------------------------------------------------------- spec files


def test_spec_sentence_follow_vectors_roles(tmp_path):
    p = write(tmp_path, """
sentence = "the dog chased a ball and it rolled away"
follow = "it"
[vectors]
dog = [3.0, -0.25]
[roles]
long_key = "and"
asymmetric_pair = ["chased", "dog"]
""")
    h = load_head(p)
    base = default_head()
    assert h.tokens == "the dog chased a ball and it rolled away".split()
    assert h.follow == 6
    np.testing.assert_array_equal(h.embeddings[1], [3.0, -0.25])           # [vectors]
    np.testing.assert_array_equal(h.embeddings[0], base.embeddings[0])     # a known word keeps its input
    np.testing.assert_array_equal(h.embeddings[5], base.embeddings[3])     # "and"
    np.testing.assert_array_equal(h.embeddings[6], base.embeddings[4])     # "it"
    for name in ("W_Q", "W_K", "W_V"):
        np.testing.assert_array_equal(getattr(h, name), getattr(base, name))
    # an unknown verb sits near the default sentence's first verb ("ate"), not on it
    off = np.linalg.norm(h.embeddings[2] - base.embeddings[2])
    assert 0 < off < 0.5
    assert h.roles == {"long_key": 5, "asymmetric_pair": [2, 1]}
    s = story_of(h)
    assert long_key_trap(s).long_key == 5
    assert set(s.asym) == {1, 2} and s.S[s.asym] >= s.S[s.asym[::-1]]
    assert s.winner == int(np.argmax(s.R[6]))


def test_spec_defaults_follow_last_pronoun(tmp_path):
    h = load_head(write(tmp_path, 'sentence = "she saw him and he ran"\n'))
    assert h.follow == 4  # "he", the last pronoun
    h = load_head(write(tmp_path, 'sentence = "dogs bark loudly"\n'))
    assert h.follow == 2  # no pronoun: the last token


def test_spec_follow_position_and_repeated_word(tmp_path):
    h = load_head(write(tmp_path, 'tokens = ["it", "saw", "it"]\nfollow = 0\n'))
    assert h.follow == 0
    h = load_head(write(tmp_path, 'tokens = ["it", "saw", "it"]\nfollow = "it"\n'))
    assert h.follow == 2  # text means the last occurrence
    np.testing.assert_array_equal(h.embeddings[0], h.embeddings[2])
    assert story_of(h).labels == ["it₁", "saw", "it₂"]


def test_spec_with_matrices_and_embeddings(tmp_path):
    p = write(tmp_path, """
sentence = "a b c"
embeddings = [[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]]
W_Q = [[2.0, 0.0], [0.0, 1.0]]
""")
    h = load_head(p)
    np.testing.assert_array_equal(h.embeddings, [[1, 0], [0, 1], [1, 1]])
    np.testing.assert_array_equal(h.W_Q, [[2, 0], [0, 1]])
    np.testing.assert_array_equal(h.W_K, default_head().W_K)


@pytest.mark.parametrize(
    ("text", "field"),
    [
        ('sentence = "it"\n', "sentence"),
        ('sentence = "' + " ".join(["w"] * 13) + '"\n', "sentence"),
        ('sentence = ""\n', "sentence"),
        ("sentence = 5\n", "sentence"),
        ('sentence = "the cat"\n[vectors]\ndog = [1.0, 2.0]\n', "dog"),
        ('sentence = "the cat"\n[vectors]\ncat = [1.0, 2.0, 3.0]\n', "vectors.cat"),
        ('sentence = "the cat"\n[vectors]\ncat = [nan, 2.0]\n', "vectors.cat"),
        ('sentence = "the cat"\n[vectors]\ncat = [0.0, 0.0]\n', "embeddings"),
        ('sentence = "the cat"\nvectors = [1.0, 2.0]\n', "vectors"),
        ('sentence = "the cat"\nW_Q = [[1.0, 2.0], [2.0, 4.0]]\n', "W_Q"),
        ('sentence = "the cat"\nW_V = [[1.0, 2.0]]\n', "W_V"),
        ('sentence = "the cat"\nembeddings = [[1.0, 2.0]]\n', "embeddings"),
        ('sentence = "the cat"\nfollow = "dog"\n', "follow"),
        ('sentence = "the cat"\nfollow = 2\n', "follow"),
        ('sentence = "the cat"\nspeed = 2\n', "speed"),
        ('sentence = "the cat"\n[roles]\nboss = "cat"\n', "boss"),
    ],
)
def test_invalid_spec(tmp_path, text, field):
    with pytest.raises(HeadError) as e:
        load_head(write(tmp_path, text, "spec.toml"))
    assert field in str(e.value), str(e.value)


def test_head_from_dict_needs_no_file():
    h = head_from_dict({"sentence": "the cat sat", "follow": 1})
    assert h.follow == 1 and h.n == 3


# ---------------------------------------------------------------- sentence heads are deterministic

WORDS = ["the", "dog", "chased", "a", "ball", "and", "it", "rolled", "彼女", "は", "zyzzyva", "Dog"]


def test_sentence_head_same_word_same_vector():
    a = sentence_head(["the", "dog", "chased", "it"])
    b = sentence_head(["dog", "it", "dog", "zyzzyva", "chased"])
    np.testing.assert_array_equal(a.embeddings[1], b.embeddings[0])
    np.testing.assert_array_equal(b.embeddings[0], b.embeddings[2])
    np.testing.assert_array_equal(a.embeddings[2], b.embeddings[4])
    c = sentence_head(["the", "dog", "chased", "it"])
    np.testing.assert_array_equal(a.embeddings, c.embeddings)
    # different unknown words of one class get different inputs
    assert not np.array_equal(b.embeddings[0], b.embeddings[3])


def test_sentence_head_default_sentence_is_default_head():
    h = sentence_head(DEFAULT_TOKENS)
    same_figures(story_of(h), story_of(default_head()))


def test_sentence_head_rejects_bad_lengths():
    with pytest.raises(HeadError, match="sentence"):
        sentence_head(["it"])
    with pytest.raises(HeadError, match="sentence"):
        sentence_head(["w"] * 13)


_CHILD = """
import json, sys
sys.path.insert(0, {root!r})
from attn_math.head import sentence_head
words = json.loads(sys.argv[1])
h = sentence_head(words)
print(json.dumps([[repr(float(c)) for c in row] for row in h.embeddings]))
"""


@pytest.mark.parametrize("seed", ["0", "4242"])
def test_sentence_head_independent_of_hash_seed(seed):
    here = [[repr(float(c)) for c in row] for row in sentence_head(WORDS).embeddings]
    env = dict(os.environ, PYTHONHASHSEED=seed)
    out = subprocess.run(
        [sys.executable, "-c", _CHILD.format(root=str(ROOT)), json.dumps(WORDS)],
        env=env, capture_output=True, text=True, check=True, timeout=60,
    )
    assert json.loads(out.stdout) == here


def test_hashed_offsets_are_small_and_word_specific():
    offs = {w: lexicon.word_offset(w, 1.0) for w in ["dog", "ball", "zyzzyva", "彼女"]}
    for v in offs.values():
        assert 0.35 - 1e-12 <= np.linalg.norm(v) <= 1.0 + 1e-12
    assert len({tuple(v) for v in offs.values()}) == len(offs)
    # case and surrounding space do not matter to the offset
    np.testing.assert_array_equal(lexicon.word_offset("Dog ", 1.0), offs["dog"])


# ---------------------------------------------------------------- token length and overflow

def test_token_length_limit():
    from attn_math.head import MAX_TOKEN_CHARS
    ok = "x" * MAX_TOKEN_CHARS
    assert sentence_head(["the", ok, "ran"]).tokens[1] == ok
    with pytest.raises(HeadError, match=r"token 1 .*21 characters, at most 20"):
        sentence_head(["the", ok + "y", "ran"])
    # characters, not bytes: twenty kanji or emoji are one token each
    assert sentence_head(["猫" * MAX_TOKEN_CHARS, "🐈"]).n == 2


@pytest.mark.parametrize("text, field", [
    ('sentence = "the cat"\n[vectors]\ncat = [1e308, 1e308]\n', "vectors.cat"),
    ('sentence = "the cat"\n[vectors]\ncat = [1e7, 0.0]\n', "vectors.cat"),
    ('sentence = "the cat"\nW_K = [[1e300, 0.0], [0.0, 1.0]]\n', "W_K"),
    ('sentence = "the cat"\nembeddings = [[1e308, 1.0], [1.0, -1e308]]\n', "embeddings"),
])
def test_overflowing_spec_is_too_large_not_zero(tmp_path, text, field):
    with pytest.raises(HeadError) as e:
        load_head(write(tmp_path, text, "spec.toml"))
    msg = str(e.value)
    assert field in msg and "too large" in msg and "zero vector" not in msg, msg


def test_cli_refuses_a_long_token_with_one_line(tmp_path):
    out = tmp_path / "out"
    p = subprocess.run([sys.executable, str(ROOT / "render.py"), "render", "--quality", "tiny",
                        "--sections", "1", "--out", str(out), "--sentence",
                        "the supercalifragilisticexpialidocious cat"],
                       capture_output=True, text=True, timeout=120)
    assert p.returncode == 2
    assert len(p.stderr.strip().splitlines()) == 1 and "34 characters" in p.stderr
    assert not out.exists()
