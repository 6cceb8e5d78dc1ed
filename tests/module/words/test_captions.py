"""The caption files: same beats in both languages, every placeholder resolvable."""

from __future__ import annotations

import pytest

from scenes.registry import SECTIONS, load_story, story_of
from scenes.sections.s18_renormalise import figures as renormalise
from scenes.sections.s19_silent_bug.derived import bug_future
from words import captions, config, cues


@pytest.fixture(scope="module")
def story():
    return load_story()


@pytest.mark.parametrize("section", SECTIONS, ids=[s.stem for s in SECTIONS])
def test_same_beats_in_both_languages(section):
    key = captions.section_key(section.number)
    ja = captions.table("ja").get(key, {})
    en = captions.table("en").get(key, {})
    assert set(ja) == set(en), f"{key}: beats differ: ja-only {set(ja) - set(en)}, en-only {set(en) - set(ja)}"


@pytest.mark.parametrize("section", SECTIONS, ids=[s.stem for s in SECTIONS])
@pytest.mark.parametrize("lang", config.LANGS)
def test_every_caption_resolves(section, lang, story):
    beats = captions.table(lang).get(captions.section_key(section.number), {})
    assert beats, f"section {section.number} has a scene but no captions in {lang}"
    ctx = story.caption_context(section.number)
    for beat in beats:
        text = captions.render(lang, section.number, beat, ctx)
        assert "{" not in text and "}" not in text, text
        assert len(text) < 160, f"{lang} {section.stem}.{beat} is too long to read: {len(text)} chars"


def test_missing_placeholder_is_an_error(story):
    with pytest.raises(KeyError, match="no_such_figure"):
        "x {no_such_figure}".format_map(captions._Strict(story.caption_context(1)))


# ---------------------------------------------------------------- every beat, many sentences
#
# Each beat the story plans (each section's beats.py), filled for sentences of different kinds, in
# both languages, read as a viewer would: no placeholder left, token names set off, no
# possessive on a token, counts agreeing with their nouns, no tie worded as a difference,
# and every beat fitting the pacing rule's cues (two lines each, at most two cues).

import re  # noqa: E402

from attn_math import prose  # noqa: E402
from attn_math.head import sentence_head  # noqa: E402

KINDS = {
    "default": None,
    "repeated_word": ("the dog chased the ball and it rolled", None),
    "one_word_twice": ("dog dog", None),
    "two_tokens": ("it ran", None),                       # the followed token is the first
    "twelve": ("the old dog chased the red ball and then it rolled away", None),
    "twelve_longest": ("the old dog chased the supercalifragilistic ball and then it rolled away",
                       None),
    "japanese": ("猫 が 魚 を 食べた そして それ は 走った", None),
    "no_pronoun": ("birds sing and fish swim", None),      # the followed token is the last
    "follow_first": ("she saw the dog and the cat", "she"),
    "follow_last": ("the cat saw the dog and it", "it"),
}


def _story(kind):
    if KINDS[kind] is None:
        return load_story()
    sentence, follow = KINDS[kind]
    return story_of(sentence_head(sentence.split(), follow=follow))


@pytest.fixture(scope="module", params=sorted(KINDS))
def planned(request):
    """(kind, story, [(lang, section, beat key, text)]) for every planned beat."""
    story = _story(request.param)
    out = []
    for section in SECTIONS:
        for lang in config.LANGS:
            ctx = story.caption_context(section.number, lang)
            for beat in section.plan(story):
                if beat.key is not None:
                    out.append((lang, section.number, beat.key,
                                captions.render(lang, section.number, beat.key, ctx)))
    return request.param, story, out


def _template_text(lang: str) -> str:
    """Everything the captions of ``lang`` say themselves, placeholders removed (a token
    equal to one of its words can appear unmarked as a word of the caption)."""
    return " ".join(re.sub(r"\{[^}]*\}", " ", t) for sec in captions.table(lang).values()
                    for entry in sec.values() for t in captions.texts(entry))


def _is_caption_word(label: str, lang: str) -> bool:
    text = _template_text(lang)
    if re.search(r"[A-Za-z]", label):
        return re.search(r"(?<![A-Za-z])" + re.escape(label) + r"(?![A-Za-z])", text, re.I) is not None
    return label in text


def test_no_placeholder_left(planned):
    kind, _, texts = planned
    for lang, sec, key, text in texts:
        assert not re.search(r"[{}]", text), (kind, lang, sec, key, text)


def test_token_names_are_set_off(planned):
    """A token that is not itself a word of the captions appears only inside the
    language's marks; a Japanese token never appears bare in Japanese prose."""
    kind, story, texts = planned
    for lang, sec, key, text in texts:
        opening, closing = prose.TOKEN_MARKS[lang]
        bare = re.sub(re.escape(opening) + r"[^" + re.escape(closing) + r"]*" + re.escape(closing), " ", text)
        if sec == 1 and key == "sentence":
            bare = re.sub(r"[“「][^”」]*[”」]", " ", bare)        # the sentence quoted whole
        for label in set(story.labels):
            if _is_caption_word(label, lang):
                continue
            if re.search(r"[A-Za-z]", label):
                hit = re.search(r"(?<![A-Za-z₀-₉])" + re.escape(label) + r"(?![A-Za-z₀-₉])", bare)
            else:
                hit = label in bare
            assert not hit, (kind, lang, sec, key, label, text)


def test_no_possessive_on_a_token(planned):
    kind, story, texts = planned
    for lang, sec, key, text in texts:
        assert not re.search(r"[”」]['’]s\b", text), (kind, lang, sec, key, text)
        for label in story.labels:
            assert f"{label}'s" not in text and f"{label}’s" not in text, (kind, lang, sec, key, text)


NOUNS = ("square", "token", "step", "number", "key", "candidate", "row", "head", "layer")


def test_counts_agree_with_their_nouns(planned):
    kind, story, texts = planned
    for lang, sec, key, text in texts:
        if lang != "en":
            continue
        for noun in NOUNS:
            assert not re.search(rf"(?<![\d.,])1 (?:\w+ )?{noun}s\b", text), (kind, sec, key, text)
            assert not re.search(rf"\b(?:[02-9]|\d\d+) (?:\w+ )?{noun}\b(?!s)", text.replace("1 ", "")), \
                (kind, sec, key, text)
        # a list of several tokens takes a plural verb
        if sec == 19 and key == "leak" and len(bug_future(story)) > 1:
            assert " keeps " not in text, (kind, text)


#: Beats that set two figures against each other: they must not print alike.
COMPARISONS = {
    (2, "sweep"): ("q_sweep_deg", "v_sweep_deg"),
    (2, "sweep_other"): ("q_sweep_deg", "v_sweep_deg"),
    (3, "follow_winner"): ("R_follow_winner", "R_follow_self"),
    (4, "two_maps"): ("S_asym_fwd", "S_asym_bwd"),
    (6, "peak"): ("R_max", "R_min"),
    (6, "floor"): ("R_max", "R_min"),
    (10, "pair"): ("S_asym_fwd", "S_asym_bwd"),
    (11, "soft"): ("w_follow_max", "w_follow_min"),
    (21, "halt"): ("out_pulled", "v_hull"),
    (25, "row"): ("wc_follow_winner", "w_follow_cwinner"),
}


def test_no_tie_worded_as_a_difference(planned):
    kind, story, texts = planned
    for lang, sec, key, text in texts:
        if (sec, key) in COMPARISONS:
            a, b = COMPARISONS[(sec, key)]
            figs = {**story.figures[sec], **{k: story.figures[s][k] for s, ks in
                                             story.sections[sec].borrows.items() for k in ks}}
            assert figs[a].text != figs[b].text, (kind, lang, sec, key, text)
        if (sec, key) == (18, "follow"):
            assert len(renormalise.causal_tied(story)) == 1, (kind, text)


def test_every_beat_fits_two_cues_of_two_lines(planned):
    kind, _, texts = planned
    for lang, sec, key, text in texts:
        shown = cues.cues_of(text, lang)
        assert 1 <= len(shown) <= 2, (kind, lang, sec, key, shown)
        for cue in shown:
            lines = cue.split("\n")
            assert len(lines) <= cues.MAX_LINES, (kind, lang, sec, key, cue)
            for line in lines:
                assert cues.reading_length(line, lang) <= cues.LINE_CHARS[lang], (kind, lang, sec, key, line)


#: Sentences whose beats list many long names (the layout sweep's seeds 10, 20 and 26): a
#: beat too long for two cues is split further, never shown wider than the bar.
CROWDED = {
    "twelve_repeats": ("their " * 12, 0),
    "five_20_letter_words": ("beyypbxvtqfunhxnwgzw " * 5, None),
    "long_unknown_words": ("sagopiuzfbqpkchx every you jviofvjvleoyh bsahegjrlyhkv 🚀 "
                           "cuskqfhnhbbpjtvc ☕ teacher 🍎 🐁", None),
}


@pytest.mark.parametrize("kind", sorted(CROWDED))
def test_a_crowded_beat_takes_more_cues_never_wider_lines(kind):
    sentence, follow = CROWDED[kind]
    story = story_of(sentence_head(sentence.split(), follow=follow))
    for lang in config.LANGS:
        for sec in SECTIONS:
            ctx = story.caption_context(sec.number, lang)
            for beat in sec.plan(story):
                if beat.key is None:
                    continue
                text = captions.render(lang, sec.number, beat.key, ctx)
                shown = cues.cues_of(text, lang)
                # nothing lost or added: the cues read back as the beat (breaks were spaces or nothing)
                assert re.sub(r"\s", "", "".join(shown)) == re.sub(r"\s", "", text)
                for cue in shown:
                    lines = cue.split("\n")
                    assert len(lines) <= cues.MAX_LINES, (lang, sec.number, beat.key, cue)
                    for line in lines:
                        assert cues.reading_length(line, lang) <= cues.LINE_CHARS[lang], \
                            (lang, sec.number, beat.key, line)


# Written here, not imported: JIS X 4051's classes of characters a line may not start
# with (closing brackets, 、。, ・：；, ？！, small kana, ー) or end with (opening brackets),
# and the English closing punctuation no line should start with.
NOT_AT_LINE_START = set("、。，．）」』】〕〉》・：；？！ーぁぃぅぇぉっゃゅょァィゥェォッャュョ,.;:!?)”’")
NOT_AT_LINE_END = set("（「『【〔〈《(“‘")


def test_no_line_starts_with_closing_punctuation(planned):
    # The s23 beat of the default video once broke as "…2.0 MiB（fp16）" / "。12 層 …".
    kind, _, texts = planned
    for lang, sec, key, text in texts:
        for cue in cues.cues_of(text, lang):
            lines = cue.split("\n")
            for line in lines[1:]:
                assert line[0] not in NOT_AT_LINE_START, (kind, lang, sec, key, cue)
            for line in lines[:-1]:
                assert line[-1] not in NOT_AT_LINE_END, (kind, lang, sec, key, cue)


def test_reading_time_follows_the_guidance():
    """Independent numbers: 4 full-width characters a second in Japanese, 17 at most in
    English, never under 1.5 s."""
    assert cues.reading_time("あ" * 40, "ja") == pytest.approx(10.0)
    assert cues.reading_time("a" * 170, "en") >= 10.0
    assert cues.reading_time("ok", "en") == 1.5
    assert cues.reading_length("ab あ", "ja") == pytest.approx(2.5)


def test_ties_pick_the_tie_beats():
    """A sentence of one word twice: every score ties, and the plan says so."""
    story = _story("one_word_twice")
    keys = {(sec.number, b.key) for sec in SECTIONS for b in sec.plan(story)}
    assert (6, "flat") in keys and (11, "soft_uniform") in keys
