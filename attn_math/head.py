"""The toy head: tokens, 2-D inputs and the three projection matrices.

A head is read from a TOML file (``assets/head.toml`` is the default) or built
from a sentence. Both paths validate everything and raise :class:`HeadError`
with a message that names the offending field, one line, fit for stderr.

File format (all keys but ``tokens``/``sentence`` optional in a *spec* file)::

    sentence = "the cat ate and it ran"   # or: tokens = ["the", "cat", ...]
    follow = "it"                          # token text (last match) or 0-based position
    embeddings = [[0.7, -0.1], ...]        # one 2-D input per token, or:
    [vectors]                              # inputs by word, for some or all words
    cat = [0.96, 1.30]
    W_Q = [[...], [...]]                   # 2x2 each; default: the default head's
    W_K = [[...], [...]]
    W_V = [[...], [...]]
    [roles]                                # override any story role (see story.py)
    long_key = "and"
    asymmetric_pair = ["cat", "ate"]
    width_row = "ate"
    hull_token = "cat"
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
from attn_explainer_assets import asset_file, assets_dir

from . import lexicon

MIN_TOKENS = 2
MAX_TOKENS = 12
#: The longest token accepted, in characters: the longest that still reads on a chip, a grid
#: label and a plane label at 720p (longer ones are abbreviated on screen past a width, but a
#: 34-letter word would be mostly ellipsis). Captions always carry the full token.
MAX_TOKEN_CHARS = 20
#: The largest magnitude accepted in inputs and matrices: scores are products of four such
#: numbers, so anything larger overflows (or draws a plane that is one dot).
MAX_ABS = 1e6
D = 2  # every vector is drawn on one plane
ROLE_KEYS = ("follow", "winner", "long_key", "asymmetric_pair", "width_row", "hull_token")
HEAD_KEYS = {"sentence", "tokens", "follow", "embeddings", "vectors", "W_Q", "W_K", "W_V",
             "roles", "name", "note"}

ASSETS = assets_dir()
DEFAULT_HEAD_PATH = ASSETS / "head.toml"


class HeadError(ValueError):
    """A head or spec that cannot be used; the message names the field."""


@dataclass
class Head:
    """One attention head on a sentence, in the row-vector convention ``q = x @ W_Q``."""

    tokens: list[str]
    embeddings: np.ndarray
    W_Q: np.ndarray
    W_K: np.ndarray
    W_V: np.ndarray
    follow: int
    roles: dict = field(default_factory=dict)

    def __post_init__(self) -> None:
        validate(self)

    @property
    def n(self) -> int:
        return len(self.tokens)

    @property
    def d_head(self) -> int:
        return int(self.W_Q.shape[1])

    def regauged(self, G: np.ndarray | None = None, A: np.ndarray | None = None) -> Head:
        """The same head in another gauge: ``x -> x G``, ``W -> inv(G) W``; ``W_Q, W_K -> W A``.

        Neither freedom changes a score, a weight or an output (tests check it).
        """
        G = np.eye(D) if G is None else np.asarray(G, float)
        A = np.eye(D) if A is None else np.asarray(A, float)
        Gi = np.linalg.inv(G)
        return Head(list(self.tokens), self.embeddings @ G, Gi @ self.W_Q @ A,
                    Gi @ self.W_K @ A, Gi @ self.W_V, self.follow, dict(self.roles))

    def to_toml(self) -> str:
        """The head as TOML, floats at full precision so every figure survives a round trip."""

        def mat(M):
            return "[" + ", ".join("[" + ", ".join(repr(float(v)) for v in row) + "]"
                                   for row in np.asarray(M)) + "]"

        lines = [
            "tokens = [" + ", ".join(_toml_str(t) for t in self.tokens) + "]",
            f"follow = {self.follow}",
            "embeddings = [",
            *[f"  [{repr(float(x))}, {repr(float(y))}]," for x, y in self.embeddings],
            "]",
            f"W_Q = {mat(self.W_Q)}",
            f"W_K = {mat(self.W_K)}",
            f"W_V = {mat(self.W_V)}",
        ]
        if self.roles:
            lines.append("[roles]")
            for k, v in self.roles.items():
                if isinstance(v, (list, tuple)):
                    lines.append(f"{k} = [" + ", ".join(str(int(x)) for x in v) + "]")
                else:
                    lines.append(f"{k} = {int(v)}")
        return "\n".join(lines) + "\n"

    def save(self, path: str | Path) -> None:
        path = Path(path)
        tmp = path.with_name(path.name + ".tmp")
        tmp.write_text(self.to_toml(), encoding="utf-8")
        tmp.replace(path)


def _toml_str(s: str) -> str:
    # TOML basic strings forbid raw control characters (a tab or a DEL in a token
    # would make the saved file unreadable): escape them as \uXXXX.
    out = s.replace("\\", "\\\\").replace('"', '\\"')
    return '"' + "".join(f"\\u{ord(c):04x}" if ord(c) < 0x20 or ord(c) == 0x7F else c
                         for c in out) + '"'


def _matrix(value, name: str, shape: tuple[int, int]) -> np.ndarray:
    try:
        M = np.array(value, dtype=float)
    except (TypeError, ValueError):
        raise HeadError(f"{name}: expected numbers, got {value!r}"[:200]) from None
    if M.shape != shape:
        want = "x".join(map(str, shape))
        got = "x".join(map(str, M.shape)) if M.ndim else "a scalar"
        raise HeadError(f"{name}: expected a {want} matrix, got {got}")
    if not np.all(np.isfinite(M)):
        raise HeadError(f"{name}: contains NaN or infinity (not finite)")
    _check_magnitude(M, name)
    return M


def _check_magnitude(M: np.ndarray, name: str) -> None:
    big = np.abs(M) > MAX_ABS
    if big.any():
        raise HeadError(f"{name}: {float(M[big][0]):g} is too large "
                        f"(at most {MAX_ABS:g} in absolute value)")


def check_token(t, i: int) -> None:
    """Raise :class:`HeadError` unless token ``t`` (position ``i``) is a non-empty string of
    at most :data:`MAX_TOKEN_CHARS` characters."""
    if not isinstance(t, str) or not t.strip():
        raise HeadError(f"tokens: token {i} is empty or not a string")
    if len(t) > MAX_TOKEN_CHARS:
        raise HeadError(f"tokens: token {i} ({t[:MAX_TOKEN_CHARS]}…) has {len(t)} characters, "
                        f"at most {MAX_TOKEN_CHARS} fit on screen")


def validate(head: Head) -> None:
    """Raise :class:`HeadError` unless ``head`` can be drawn and computed."""
    n = len(head.tokens)
    if n < MIN_TOKENS:
        raise HeadError(f"tokens: need at least {MIN_TOKENS} tokens, got {n}")
    if n > MAX_TOKENS:
        raise HeadError(f"tokens: at most {MAX_TOKENS} tokens fit on screen, got {n}")
    for i, t in enumerate(head.tokens):
        check_token(t, i)
    head.embeddings = _matrix(head.embeddings, "embeddings", (n, D))
    # A zero input has a zero query, key and value (the matrices are invertible):
    # no direction to draw, no line to cast a shadow on, and NaN in the story.
    norms = np.linalg.norm(head.embeddings, axis=1)
    for zero in np.flatnonzero(norms <= 1e-9 * max(1.0, float(norms.max()))):
        raise HeadError(f"embeddings: the input of token {zero} ({head.tokens[zero]!r}) is the zero vector")
    for name in ("W_Q", "W_K", "W_V"):
        M = _matrix(getattr(head, name), name, (D, D))
        # A singular projection collapses every query (key, value) onto one line:
        # the plane pictures and the blend would silently degenerate.
        if abs(np.linalg.det(M)) < 1e-9 * max(1.0, float(np.abs(M).max()) ** 2):
            raise HeadError(f"{name}: matrix is singular (determinant 0)")
        setattr(head, name, M)
    if not isinstance(head.roles, dict):
        raise HeadError("roles: expected a table")
    head.roles = dict(head.roles)  # normalised below; never the caller's dict
    for k, v in head.roles.items():
        if k not in ROLE_KEYS:
            raise HeadError(f"roles: unknown role {k!r} (known: {', '.join(ROLE_KEYS)})")
        # Role values are positions here (files resolve token text before this point);
        # an out-of-range one would surface later as an IndexError in the story.
        if k == "asymmetric_pair":
            if (not isinstance(v, (list, tuple)) or len(v) != 2
                    or not all(_is_position(x, n) for x in v) or v[0] == v[1]):
                raise HeadError(f"roles.asymmetric_pair: expected two different positions "
                                f"in 0..{n - 1}, got {v!r}")
            head.roles[k] = [int(x) for x in v]
        else:
            if not _is_position(v, n):
                raise HeadError(f"roles.{k}: position {v!r} is not in 0..{n - 1}")
            head.roles[k] = int(v)
    if "follow" in head.roles:  # the documented override; the story reads head.follow
        head.follow = head.roles["follow"]
    if not _is_position(head.follow, n):
        raise HeadError(f"follow: position {head.follow!r} is not in 0..{n - 1}")
    head.follow = int(head.follow)


def _is_position(v, n: int) -> bool:
    return bool(isinstance(v, (int, np.integer)) and not isinstance(v, (bool, np.bool_))
                and 0 <= v < n)


# ---------------------------------------------------------------- reading


def _resolve_token(ref, tokens: list[str], field_name: str) -> int:
    """A token reference (0-based position or text; text means its last occurrence)."""
    if isinstance(ref, bool):
        raise HeadError(f"{field_name}: expected a token or a position, got {ref!r}")
    if isinstance(ref, int):
        if not 0 <= ref < len(tokens):
            raise HeadError(f"{field_name}: position {ref} is not in 0..{len(tokens) - 1}")
        return ref
    if isinstance(ref, str):
        hits = [i for i, t in enumerate(tokens) if t == ref]
        if not hits:
            raise HeadError(f"{field_name}: {ref!r} is not a token of the sentence")
        return hits[-1]
    raise HeadError(f"{field_name}: expected a token or a position, got {ref!r}")


def default_follow(tokens: list[str]) -> int:
    """The last pronoun in the sentence, else the last token."""
    for i in range(len(tokens) - 1, -1, -1):
        if lexicon.is_pronoun(tokens[i]):
            return i
    return len(tokens) - 1


def split_sentence(sentence: str) -> list[str]:
    if not isinstance(sentence, str):
        raise HeadError(f"sentence: expected a string, got {sentence!r}")
    return sentence.split()


def _class_anchors(base: Head) -> dict[str, np.ndarray]:
    """Each word class's input in ``base``: the first token of that class."""
    anchors: dict[str, np.ndarray] = {}
    for t, x in zip(base.tokens, base.embeddings):
        anchors.setdefault(lexicon.input_class(t), x)
    if lexicon.NOUN not in anchors:
        anchors[lexicon.NOUN] = base.embeddings.mean(axis=0)
    return anchors


def sentence_head(tokens: list[str], follow=None, base: Head | None = None,
                  vectors: dict | None = None, roles: dict | None = None) -> Head:
    """A head on ``tokens`` with ``base``'s matrices and lexicon inputs for every word.

    A word of the base sentence keeps its input; any other word gets its class's
    anchor plus a hashed offset (:func:`lexicon.vector_for`); ``vectors`` overrides.
    """
    base = base or default_head()
    tokens = list(tokens)
    if not MIN_TOKENS <= len(tokens) <= MAX_TOKENS:
        raise HeadError(
            f"sentence: need {MIN_TOKENS} to {MAX_TOKENS} tokens, got {len(tokens)}")
    known = {t.lower(): x for t, x in zip(reversed(base.tokens), reversed(base.embeddings))}
    anchors = _class_anchors(base)
    vectors = vectors or {}
    emb = []
    for t in tokens:
        if t in vectors:
            emb.append(_vec(vectors[t], f"vectors.{t}"))
        elif t.lower() in known:
            emb.append(known[t.lower()])
        else:
            emb.append(lexicon.vector_for(t, anchors))
    f = default_follow(tokens) if follow is None else _resolve_token(follow, tokens, "follow")
    return Head(tokens, np.array(emb), base.W_Q.copy(), base.W_K.copy(), base.W_V.copy(), f,
                _resolve_roles(roles or {}, tokens))


def _vec(value, name: str) -> np.ndarray:
    try:
        v = np.array(value, dtype=float)
    except (TypeError, ValueError):
        raise HeadError(f"{name}: expected 2 numbers, got {value!r}"[:200]) from None
    if v.shape != (D,):
        raise HeadError(f"{name}: expected 2 numbers, got shape {v.shape}")
    if not np.all(np.isfinite(v)):
        raise HeadError(f"{name}: contains NaN or infinity (not finite)")
    _check_magnitude(v, name)
    return v


def _resolve_roles(roles: dict, tokens: list[str]) -> dict:
    if not isinstance(roles, dict):
        raise HeadError("roles: expected a table")
    out: dict[str, int | list[int]] = {}
    for k, v in roles.items():
        if k not in ROLE_KEYS:
            raise HeadError(f"roles: unknown role {k!r} (known: {', '.join(ROLE_KEYS)})")
        if k == "asymmetric_pair":
            if not isinstance(v, (list, tuple)) or len(v) != 2:
                raise HeadError("roles.asymmetric_pair: expected two tokens")
            i, j = (_resolve_token(r, tokens, f"roles.{k}") for r in v)
            if i == j:
                raise HeadError("roles.asymmetric_pair: needs two different tokens")
            out[k] = [i, j]
        else:
            out[k] = _resolve_token(v, tokens, f"roles.{k}")
    return out


def head_from_dict(data: dict, base: Head | None = None) -> Head:
    """A head from a parsed head or spec file (see the module docstring)."""
    unknown = sorted(set(data) - HEAD_KEYS)
    if unknown:
        raise HeadError(f"unknown key {unknown[0]!r} (known: {', '.join(sorted(HEAD_KEYS))})")
    if "tokens" in data and "sentence" in data:
        raise HeadError("give either tokens or sentence, not both")
    if "tokens" in data:
        tokens = data["tokens"]
        if not isinstance(tokens, list) or not all(isinstance(t, str) for t in tokens):
            raise HeadError("tokens: expected a list of strings")
    elif "sentence" in data:
        tokens = split_sentence(data["sentence"])
    else:
        raise HeadError("missing key 'tokens' (or 'sentence')")
    if not MIN_TOKENS <= len(tokens) <= MAX_TOKENS:
        where = "tokens" if "tokens" in data else "sentence"  # name the field the file used
        raise HeadError(f"{where}: need {MIN_TOKENS} to {MAX_TOKENS} tokens, got {len(tokens)}")
    follow = data.get("follow")
    full = all(k in data for k in ("embeddings", "W_Q", "W_K", "W_V"))
    if full:
        f = default_follow(tokens) if follow is None else _resolve_token(follow, tokens, "follow")
        return Head(list(tokens), data["embeddings"], data["W_Q"], data["W_K"], data["W_V"], f,
                    _resolve_roles(data.get("roles", {}), tokens))
    # A spec: start from the base head's matrices and the lexicon.
    base = base or default_head()
    W = {k: _matrix(data[k], k, (D, D)) if k in data else getattr(base, k)
         for k in ("W_Q", "W_K", "W_V")}
    base = Head(list(base.tokens), base.embeddings, W["W_Q"], W["W_K"], W["W_V"], base.follow)
    vectors = data.get("vectors", {})
    if not isinstance(vectors, dict):
        raise HeadError("vectors: expected a table of word = [x, y]")
    for w in vectors:
        if w not in tokens:
            raise HeadError(f"vectors: {w!r} is not a token of the sentence")
    vectors = {w: _vec(v, f"vectors.{w}") for w, v in vectors.items()}
    head = sentence_head(tokens, follow, base, vectors, data.get("roles", {}))
    if "embeddings" in data:
        head.embeddings = _matrix(data["embeddings"], "embeddings", (len(tokens), D))
        validate(head)
    return head


def load_head(path: str | Path, base: Head | None = None) -> Head:
    """Read and validate a head or spec file."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise HeadError(f"{path}: no such file") from None
    except (OSError, UnicodeDecodeError) as e:
        raise HeadError(f"{path}: cannot read ({e.__class__.__name__})") from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise HeadError(f"{path}: not valid TOML ({e})") from None
    try:
        return head_from_dict(data, base)
    except HeadError as e:
        raise HeadError(f"{path.name}: {e}") from None


_DEFAULT: Head | None = None


def default_head() -> Head:
    """The default head (``assets/head.toml``), read once."""
    global _DEFAULT
    if _DEFAULT is None:  # absent only from a broken install: AssetMissing names the fix
        _DEFAULT = load_head(asset_file("head.toml"))
    h = _DEFAULT
    return Head(list(h.tokens), h.embeddings.copy(), h.W_Q.copy(), h.W_K.copy(), h.W_V.copy(),
                h.follow, dict(h.roles))


def resolve_head(head: str | Path | None = None, spec: str | Path | None = None,
                 sentence: str | None = None, follow: str | None = None) -> Head:
    """The head the command line asks for: ``--head``, ``--spec``, ``--sentence``, ``--follow``.

    ``--head`` and ``--spec`` both name a TOML file (a full head, or a spec that
    leaves some keys to the default head); ``--sentence`` replaces the file's
    sentence (or the default one) and ``--follow`` its followed token (text or
    0-based position). Raises :class:`HeadError` with a one-line message.
    """
    if head and spec:
        raise HeadError("give --head or --spec, not both")
    path = head or spec
    if sentence is None and follow is None:
        return load_head(path) if path else default_head()
    data: dict = {}
    if path:
        try:
            data = tomllib.loads(Path(path).read_text(encoding="utf-8"))
        except FileNotFoundError:
            raise HeadError(f"{path}: no such file") from None
        except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as e:
            raise HeadError(f"{path}: cannot read ({e})") from None
    if sentence is not None:
        tokens = split_sentence(sentence)
        if not MIN_TOKENS <= len(tokens) <= MAX_TOKENS:
            raise HeadError(f"sentence: need {MIN_TOKENS} to {MAX_TOKENS} tokens, got {len(tokens)}")
        # A new sentence invalidates per-token data of the file (its inputs, its roles).
        for k in ("tokens", "sentence", "embeddings", "roles"):
            data.pop(k, None)
        if isinstance(data.get("vectors"), dict):
            data["vectors"] = {w: v for w, v in data["vectors"].items() if w in tokens}
        data["sentence"] = sentence
        data.pop("follow", None)
    elif not data:
        data = {"tokens": default_head().tokens}
    if follow is not None:
        data["follow"] = int(follow) if str(follow).lstrip("-").isdigit() else follow
    return head_from_dict(data)
