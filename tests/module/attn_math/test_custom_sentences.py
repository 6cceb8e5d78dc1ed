"""Custom sentences: figures recomputed independently, roles by the documented rules."""

from __future__ import annotations

import numpy as np
import pytest

from attn_math import lexicon
from attn_math.head import HeadError, default_head, head_from_dict, sentence_head
from scenes.registry import story_of
from scenes.sections.s07_long_key_trap.derived import long_key_trap
from scenes.sections.s09_reading_rows.derived import flattest_row
from scenes.sections.s21_inside_the_hull.derived import hull
from scenes.sections.s22_order_does_not_exist.derived import reorderings
from tests.support.sentences import CUSTOM as SENTENCES
from tests.support.sentences import independent


@pytest.fixture(params=sorted(SENTENCES), ids=sorted(SENTENCES))
def story(request):
    return story_of(sentence_head(SENTENCES[request.param].split()))


def test_arrays_match_independent_numpy(story):
    Q, K, V, R, S, W, Wc, O = independent(story.head)
    for got, want in ((story.Q, Q), (story.K, K), (story.V, V), (story.R, R), (story.S, S),
                      (story.W, W), (story.Wc, Wc), (story.O, O)):
        np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-12)


def test_roles_follow_the_documented_rules(story):
    n, f = story.n, story.follow
    toks = story.tokens
    pron = [i for i, t in enumerate(toks) if lexicon.is_pronoun(t)]
    assert f == (pron[-1] if pron else n - 1)
    assert story.winner == int(np.argmax(story.R[f]))
    a, b = story.asym
    A = np.abs(story.S - story.S.T)
    np.fill_diagonal(A, -1)
    assert A[a, b] == A.max() and story.S[a, b] >= story.S[b, a]
    assert flattest_row(story) == int(np.argmin(story.S.max(1) - story.S.min(1)))
    assert hull(story).hull_token == story.winner
    assert story.bug_row == (f if f < n - 1 else n - 2)
    assert story.causal_winner == int(np.argmax(story.Wc[f]))
    verbs = [i for i, t in enumerate(toks) if lexicon.input_class(t) == lexicon.VERB]
    if verbs:
        assert story.width_row == verbs[0]
    lk = long_key_trap(story).long_key
    assert lk != story.winner
    if long_key_trap(story).stretch_overtakes:
        # The long key needs the smallest stretch among the candidates of its pool.
        cross = story.R[f, story.winner] / story.R[f, lk]
        assert story.fig(7, "stretch_lo").value <= cross + 1e-12 < story.fig(7, "stretch_hi").value


def test_figures_match_independent_numpy(story):
    Q, K, V, R, S, W, Wc, O = independent(story.head)
    f, w = story.follow, story.winner
    assert story.fig(3, "R_follow_winner").value == pytest.approx(R[f, w])
    assert story.fig(11, "w_follow_max").value == pytest.approx(W[f].max())
    assert story.fig(11, "w_follow_min").value == pytest.approx(W[f].min())
    # The first position keeps the whole mix: 1, at the decimals section 18's bars show.
    assert story.fig(18, "wc_first").text == "1." + "0" * story.sum_places[18].parts
    np.testing.assert_allclose(story.fig(20, "out_follow").value, O[f])
    for out in reorderings(story).permuted_outputs:
        np.testing.assert_allclose(out, O[f], atol=1e-12)
    # "max - min" of the flattest row agrees with the two numbers shown (2 decimals).
    fr = flattest_row(story)
    from decimal import ROUND_HALF_UP, Decimal
    shown = [Decimal(repr(float(x))).quantize(Decimal("0.01"), ROUND_HALF_UP)
             for x in (S[fr].max(), S[fr].min())]
    assert story.fig(9, "flattest_range").text == f"{abs(shown[0] - shown[1]):.2f}"
    n = story.n
    assert story.fig(17, "discarded").value == n * (n - 1) // 2
    assert story.fig(17, "kept").value == n * (n + 1) // 2


def test_repeated_words_have_distinct_labels():
    s = story_of(sentence_head(SENTENCES["repeated"].split()))
    assert s.labels[0] != s.labels[3] and s.tokens[0] == s.tokens[3] == "the"
    assert len(set(s.labels)) == s.n


def test_same_word_same_vector_everywhere():
    a = sentence_head("the zebra ate and it ran".split())
    b = sentence_head("a zebra slept".split())
    np.testing.assert_array_equal(a.embeddings[1], b.embeddings[1])


def test_known_words_keep_the_default_inputs():
    base = default_head()
    h = sentence_head("the cat ate".split())
    np.testing.assert_array_equal(h.embeddings, base.embeddings[:3])


def test_pronoun_query_leans_toward_nouns():
    s = story_of(sentence_head("the dog saw the ball and it rolled".split()))
    assert lexicon.word_class(s.tokens[s.winner]) == lexicon.NOUN


@pytest.mark.parametrize("data, field", [
    ({"sentence": ""}, "tokens"),
    ({"sentence": "alone"}, "tokens"),
    ({"sentence": " ".join(["w"] * 13)}, "tokens"),
    ({"sentence": "the cat ran", "follow": "dog"}, "follow"),
    ({"sentence": "the cat ran", "follow": 7}, "follow"),
    ({"sentence": "the cat ran", "W_Q": [[1, 2], [2, 4]]}, "W_Q"),
    ({"sentence": "the cat ran", "W_K": [[1, 2, 3], [2, 4, 5]]}, "W_K"),
    ({"sentence": "the cat ran", "W_V": [["a", 1], [0, 1]]}, "W_V"),
    ({"sentence": "the cat ran", "vectors": {"cat": [float("nan"), 1]}}, "vectors.cat"),
    ({"sentence": "the cat ran", "colour": "red"}, "colour"),
    ({"sentence": "the cat ran", "roles": {"villain": "cat"}}, "villain"),
])
def test_bad_specs_name_the_problem(data, field):
    with pytest.raises(HeadError, match=field):
        head_from_dict(data)


def _shown_ratio(story) -> str:
    from attn_math.fmt import fmt

    hi, lo = (float(story.fig(11, n).text) for n in ("w_follow_max", "w_follow_min"))
    return fmt(hi / lo, 1)


def test_the_weight_ratio_is_true_arithmetic_on_the_shown_weights(story):
    # Section 11 writes "w_max / w_min ≈ ratio": dividing the two numbers as printed must
    # give the printed ratio, whatever the sentence.
    assert _shown_ratio(story) == story.fig(11, "w_ratio").text


def test_small_weights_get_the_decimals_their_ratio_needs():
    # At two decimals this row shows 0.13 / 0.04 (= 3.25) beside a true ratio of 2.9.
    story = story_of(sentence_head(
        "the old dog chased the supercalifragilistic ball and then it rolled away".split()))
    assert story.fig(11, "w_ratio").text == "2.9"
    assert story.fig(11, "w_follow_min").text == "0.043"
    assert _shown_ratio(story) == "2.9"
