"""The sentences the tests try beside the default one, and an independent recomputation of
a head's figures with plain numpy (the oracle for the story's arrays)."""

from __future__ import annotations

import numpy as np

from attn_math.head import MAX_TOKEN_CHARS

__all__ = ["CUSTOM", "LAYOUT", "LONGEST", "independent"]

#: Custom sentences the story is tested on, by name.
CUSTOM = {
    "repeated": "the dog chased the ball and it rolled",
    "twelve": "the old dog chased the red ball and then it rolled away",
    "japanese": "猫 が 魚 を 食べた そして それ は 走った",
    "two": "it ran",
    "no_pronoun": "birds sing and fish swim",
}


def independent(head):
    """Everything recomputed from the head's matrices with plain numpy."""
    X, WQ, WK, WV = head.embeddings, head.W_Q, head.W_K, head.W_V
    Q, K, V = X @ WQ, X @ WK, X @ WV
    S = Q @ K.T / np.sqrt(WQ.shape[1])
    E = np.exp(S - S.max(1, keepdims=True))
    W = E / E.sum(1, keepdims=True)
    n = len(X)
    Sm = S.copy()
    Sm[np.triu_indices(n, 1)] = -np.inf
    Ec = np.exp(Sm - Sm.max(1, keepdims=True))
    Wc = Ec / Ec.sum(1, keepdims=True)
    return Q, K, V, Q @ K.T, S, W, Wc, W @ V


#: The longest token the tool accepts.
LONGEST = "supercalifragilistic"
assert len(LONGEST) == MAX_TOKEN_CHARS

#: name -> (sentence, caption language, theme)
LAYOUT = {
    "twelve": (CUSTOM["twelve"], "en", "light"),
    # twelve tokens, one of them of the longest length (the contact sheets' sentence)
    "twelve_longest": (f"the old dog chased the {LONGEST} ball and then it rolled away",
                       "en", "light"),
    "longest": (f"the {LONGEST} cat chased it", "en", "dark"),
    "repeated": (CUSTOM["repeated"], "ja", "light"),
    "japanese": (CUSTOM["japanese"], "ja", "dark"),
    "emoji": ("the 🐈 chased a 🐁 and it ran", "en", "dark"),
    "two": (CUSTOM["two"], "ja", "light"),               # the first token is followed
    "no_pronoun": (CUSTOM["no_pronoun"], "en", "dark"),  # the last token is followed
}
