"""Section 26, a real head: what a trained transformer does with the followed word.

Storyboard: the sentence as the model reads it (its word pieces, ``[CLS]`` and ``[SEP]``
added); the followed word's row in all 72 heads as a grid that lights up layer by layer; the
heads that park its weight on ``[CLS]``/``[SEP]`` tinted, the strongest link to another word
outlined; then the head that gives the toy head's winner the most, zoomed in: its row as the
bars of sections 11 and 19, over the toy head's row for the same word, and the words after
the followed one marked: an encoder reads both ways. A sentence the model cannot read gets
its pieces and an honest card instead.
"""

from __future__ import annotations

import numpy as np
from manim import DOWN, UP, FadeIn, FadeOut, Line, ReplacementTransform, VGroup

from scenes import style, timing
from scenes.base import STAGE_SCALE, SectionScene
from scenes.geometry import Box
from scenes.sections.s26_real_head.beats import readable
from scenes.sections.s26_real_head.figures import (
    attention,
    chosen_head,
    chosen_row,
    foreign_words,
    parked,
    real_tops,
    toy_row,
    toy_tops,
    unknown_words,
)
from scenes.sections.s26_real_head.head_grid import HeadGrid
from scenes.widgets.text import label
from scenes.widgets.tokens import MIN_CHIP_SIZE, TokenStrip
from scenes.widgets.weights import CHIP_HEIGHT, GUTTER, RIGHT_ROOM, RowLayout, WeightBars

#: Seconds one layer of the grid takes to light up.
LAYER_TIME = 0.5
#: Height of the strip naming the grid's bars, above it.
LEGEND_CHIP = 0.4
#: The readout line under the legend, right-aligned: its height and share of the width.
READOUT_HEIGHT = 0.3
READOUT_SHARE = 0.6
#: At most this share of the content width for the pieces while they are all there is.
PIECES_SHARE = 0.85
#: The most lines the pieces take (12 words can make 30 pieces).
MAX_PIECE_LINES = 3
#: Opacity of the tint behind a head that parks the followed word.
PARKED_TINT = 0.45


class RealHead(SectionScene):

    def construct(self):
        self.open()
        self.att = attention(self.story)
        self.show_pieces()
        if not readable(self.story):
            self.cannot_read()
            return
        self.light_grid()
        self.mark_parked()
        self.mark_strongest()
        self.zoom_in()
        self.compare()
        self.both_ways()

    # ------------------------------------------------------------ the pieces

    def show_pieces(self):
        t, a = self.theme, self.att
        box = style.content_box()
        groups, k = [], 0
        for ps in a.pieces:
            groups.append(list(range(k, k + len(ps))))
            k += len(ps)
        self.piece_groups = groups
        self.pieces, self.piece_boxes = self.piece_lines(a.pieces, PIECES_SHARE * box.width)
        brackets = VGroup()
        for i, g in enumerate(groups):
            if len(g) > 1:
                first, last = self.piece_boxes[g[0]], self.piece_boxes[g[-1]]
                y = first.get_bottom()[1] - style.NEAR
                line = Line([first.get_left()[0], y, 0], [last.get_right()[0], y, 0], color=t.muted, stroke_width=2)
                word = label(self.names[i - 1], style.SMALL_SIZE, t.muted)
                word.next_to(line, DOWN, buff=style.SNUG)
                brackets.add(VGroup(line, word))
        self.brackets = brackets
        marks = VGroup(*[self.piece_mark(j) for j in groups[a.follow]])
        count = label(self.caption_text("ui_pieces", pieces=self.fig("pieces").text), style.LABEL_SIZE, t.fg)
        model = label(self.story.caption_context(self.SECTION, self.lang)["model"], style.TITLE_SIZE, t.fg)
        model.next_to(self.pieces, UP, buff=style.APART + count.height + style.GAP)
        count.next_to(self.pieces, UP, buff=style.GAP)
        self.piece_heads = VGroup(model, count)
        # All there is to see for now: as large as the frame allows, up to the stage's scale
        # (with the card that will say why, for a sentence the model cannot read).
        shown = VGroup(self.piece_heads, self.pieces, brackets, marks)
        if not readable(self.story):
            self.card = self.unreadable_card()
            self.card.next_to(VGroup(self.pieces, brackets), DOWN, buff=style.APART)
            shown.add(self.card)
        shown.scale(min(STAGE_SCALE, PIECES_SHARE * box.width / shown.width, PIECES_SHARE * box.height / shown.height))
        shown.move_to(style.content_center())
        self.say("pieces")
        self.play(FadeIn(model, shift=style.TIGHT * DOWN), run_time=timing.FADE)
        self.play(FadeIn(self.pieces, lag_ratio=0.05), FadeIn(count), run_time=timing.ENTER)
        self.play(FadeIn(brackets), FadeIn(marks), run_time=timing.QUICK)
        self.piece_marks = marks
        self.settle()

    def piece_lines(self, pieces: list[list[str]], width: float) -> tuple[VGroup, list]:
        """The pieces as chips, on as few lines as keep them readable (a word's pieces never
        split over two lines), every line at one size; and each piece's chip box, in order."""
        total = sum(len(p) for ps in pieces for p in ps)
        for count in range(1, MAX_PIECE_LINES + 1):
            runs, run, used = [], [], 0
            for ps in pieces:
                chars = sum(len(p) for p in ps)
                if run and used + chars / 2 > total * (len(runs) + 1) / count:
                    runs.append(run)
                    run = []
                run.append(ps)
                used += chars
            runs.append(run)
            strips = [TokenStrip([p for ps in r for p in ps], width=width) for r in runs]
            if min(st.font_size for st in strips) >= MIN_CHIP_SIZE:
                break
        size = min(st.font_size for st in strips)
        for st in strips:
            if st.font_size > size:
                st.scale(size / st.font_size)
        lines = VGroup(*strips).arrange(DOWN, buff=style.NEAR + label("Ag", style.SMALL_SIZE).height + style.SPACED)
        return lines, [chip[0] for st in strips for chip in st.chips]

    def piece_mark(self, j: int, color: str | None = None):
        """An outline of piece ``j``'s chip (the highlight colour by default)."""
        return self.piece_boxes[j].copy().set_fill(opacity=0).set_stroke(color or self.theme.highlight, width=4)

    def unreadable_card(self) -> VGroup:
        """The honest card's words: the model cannot read the sentence, and the rule."""
        t = self.theme
        head = label(self.ui("unread"), style.LABEL_SIZE, t.bad)
        rule = label(self.ui("rule"), style.SMALL_SIZE, t.muted)
        card = VGroup(head, rule).arrange(DOWN, buff=style.CLOSE)
        style.content_box().fit(card)
        return card

    def cannot_read(self):
        """The honest card: the words the model cannot read marked, and the rule."""
        t = self.theme
        bad = VGroup(*[self.piece_mark(j, t.bad) for i in foreign_words(self.story) + unknown_words(self.story)
                       for j in self.piece_groups[i + 1]])
        self.say("unreadable")
        self.play(FadeIn(bad), FadeIn(self.card, shift=style.TIGHT * UP), run_time=timing.FADE)
        self.settle(timing.LAST_HOLD)

    # ------------------------------------------------------------ the grid

    def light_grid(self):
        a = self.att
        box = style.content_box()
        n = len(a.tokens)
        self.real_names = ["[CLS]", *self.names, "[SEP]"]
        legend = TokenStrip(self.real_names, width=box.width, chip_height=LEGEND_CHIP, size=style.SMALL_SIZE)
        legend.move_to([0, box.t - LEGEND_CHIP / 2, 0])
        legend.align_to([box.l, 0, 0], direction=np.array([-1, 0, 0]))
        self.legend = legend
        below = box.t - LEGEND_CHIP - style.TIGHT
        self.readout_box = Box(box.l + (1 - READOUT_SHARE) * box.width, box.r, below - READOUT_HEIGHT, below)
        grid_box = Box(box.l, box.r, box.b, self.readout_box.b - style.TIGHT)
        self.grid = HeadGrid(a.rows, grid_box, lambda k: self.caption_text("ui_layer", layer=k), (0, n - 1))
        self.say("grid")
        self.play(FadeOut(self.pieces), FadeOut(self.brackets), FadeOut(self.piece_heads), FadeOut(self.piece_marks),
                  FadeIn(legend), run_time=timing.FADE)
        self.play(FadeIn(self.grid.cells), FadeIn(self.grid.layer_names), FadeIn(self.grid.head_numbers),
                  run_time=timing.QUICK)
        for row in self.grid.bars:
            self.play(FadeIn(row, shift=style.NUDGE * UP), run_time=LAYER_TIME)
        self.settle()

    def readout(self, text: str, color: str) -> VGroup:
        """One line in the top band's right part, with a swatch of the colour it explains."""
        words = label(text, style.SMALL_SIZE, self.theme.fg)
        swatch = self.grid.frame(0, 0).copy().set_stroke(color, width=3).set_fill(color, opacity=PARKED_TINT)
        swatch.scale_to_fit_height(words.height)
        line = VGroup(swatch, words).arrange(np.array([1, 0, 0]), buff=style.SNUG)
        if line.width > self.readout_box.width:
            line.scale_to_fit_width(self.readout_box.width)
        line.move_to(self.readout_box.center)
        line.align_to([self.readout_box.r, 0, 0], direction=np.array([1, 0, 0]))
        return line

    def mark_parked(self):
        t = self.theme
        self.tints = self.grid.tint(parked(self.story), t.muted, PARKED_TINT)
        self.tints.set_z_index(-1)
        self.parked_line = self.readout(self.ui("parked"), t.muted)
        self.say("parked")
        self.play(FadeIn(self.tints), FadeIn(self.parked_line), run_time=timing.FADE)
        self.settle()

    def mark_strongest(self):
        t = self.theme
        layer, head, word = self.att.strongest_other()
        self.strong_mark = self.grid.outline(layer, head, t.amber)
        line = self.readout(self.caption_text("ui_strong", word=self.real_names[word],
                                              follow_name=self.names[self.story.follow]), t.amber)
        line[0].set_fill(opacity=0)
        self.say("strong")
        self.play(FadeIn(self.strong_mark), ReplacementTransform(self.parked_line, line), run_time=timing.FADE)
        self.strong_line = line
        self.settle()

    # ------------------------------------------------------------ one head, beside the toy head

    def zoom_in(self):
        s, t = self.story, self.theme
        layer, head = chosen_head(s)
        chosen = self.grid.outline(layer, head, t.query, width=5)
        n = len(self.real_names)
        box = style.content_box()
        mid = (box.t + box.b) / 2
        top = self.row_layout(mid + style.GAP, box.t)
        low = self.row_layout(box.b, mid - style.GAP)
        self.real_bars = WeightBars(self.real_names, lambda: chosen_row(s), top,
                                    colors=lambda: [t.muted if j in (0, n - 1) else t.weight for j in range(n)])
        toy = np.concatenate([[0.0], toy_row(s), [0.0]])
        self.toy_bars = WeightBars(self.real_names, lambda: toy, low,
                                   masked=lambda: [1.0 if j in (0, n - 1) else 0.0 for j in range(n)])
        real_name = self.name_in_gutter([self.caption_text("ui_layer", layer=layer + 1),
                                         self.caption_text("ui_head_n", head=head + 1)], top)
        toy_name = self.name_in_gutter([self.ui("toy")], low)
        winner = s.winner + 1
        self.winner_marks = VGroup(self.real_bars.marker(winner, t.amber, follow=False),
                                   *[self.toy_bars.marker(j + 1, t.amber, follow=False) for j in toy_tops(s)])
        self.say("zoom")
        self.play(FadeIn(chosen), run_time=timing.QUICK)
        cell = self.grid.frame(layer, head).copy().set_stroke(t.query, width=5)
        everything = VGroup(self.grid, self.tints, self.strong_mark, self.strong_line, self.legend, chosen)
        self.play(FadeOut(everything), cell.animate.replace(self.real_bars, stretch=True), run_time=timing.MOVE)
        self.play(FadeOut(cell), FadeIn(self.real_bars), FadeIn(real_name), run_time=timing.FADE)
        self.play(FadeIn(self.toy_bars), FadeIn(toy_name), FadeIn(self.winner_marks), run_time=timing.FADE)
        self.settle()

    def row_layout(self, bottom: float, top: float) -> RowLayout:
        """One bar row's zones between ``bottom`` and ``top``: the chips at the bottom, the bars
        above them, room for their numbers at the top."""
        box = style.content_box()
        strip_y = bottom + CHIP_HEIGHT / 2 + style.HAIR
        return RowLayout(box.l + GUTTER, box.r - RIGHT_ROOM, (top - style.GAP,), None,
                         (strip_y + CHIP_HEIGHT / 2 + style.NEAR, top - style.SPACED), strip_y)

    def name_in_gutter(self, lines: list[str], layout: RowLayout) -> VGroup:
        """A row's name left of its bars, a line each of ``lines``."""
        lines = VGroup(*[label(w, style.SMALL_SIZE, self.theme.fg) for w in lines]).arrange(DOWN, buff=style.TIGHT)
        room = GUTTER - style.GAP
        if lines.width > room:
            lines.scale_to_fit_width(room)
        bottom, top = layout.area
        lines.move_to([style.safe_left() + style.NUDGE + lines.width / 2, (bottom + top) / 2, 0])
        return lines

    def compare(self):
        t = self.theme
        tops = VGroup(*[self.real_bars.marker(j, t.value, follow=False) for j in real_tops(self.story)
                        if j != self.story.winner + 1])
        self.say("compare")
        if len(tops):
            self.play(FadeIn(tops), run_time=timing.QUICK)
        self.settle()

    def both_ways(self):
        s, t = self.story, self.theme
        strip = self.real_bars.strip
        first, last = strip.box(s.follow + 2).get_left(), strip.box(len(self.real_names) - 1).get_right()
        y = strip.get_bottom()[1] - style.NEAR
        line = Line([first[0], y, 0], [last[0], y, 0], color=t.amber, stroke_width=3)
        note = label(self.ui("after"), style.SMALL_SIZE, t.amber)
        note.next_to(line, DOWN, buff=style.SNUG)
        style.content_box().pull_inside(note)
        self.say("encoder")
        self.play(FadeIn(line), FadeIn(note, shift=style.TIGHT * UP), run_time=timing.FADE)
        self.settle(timing.LAST_HOLD)
