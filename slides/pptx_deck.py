"""The PowerPoint deck (python-pptx): a title slide, then one 16:9 slide per section, or,
in a stepped deck (:mod:`slides.beats`), one per caption beat: the beat's piece, its last
frame as the poster, its caption as the notes, the section's title on each.

Each section slide holds the section's number and title and its clip, embedded in the file
(python-pptx stores a media part once per distinct file, so a clip used twice is stored
once) with the section's poster frame and its text alternative (alt text: the title and the
section's summary), and the caption script as speaker notes. python-pptx
plays a movie on click; :func:`autoplay_timing` writes the slide timing PowerPoint writes for
"Start: Automatically" (the play command runs after the slide's entrance, once: no loop).
"""

from __future__ import annotations

from pathlib import Path

from .deck import Deck, SectionSlide
from .style import COLOURS

SLIDE_W_IN, SLIDE_H_IN = 13.333, 7.5     # 16:9
MARGIN_IN = 0.5
TITLE_TOP_IN, TITLE_H_IN = 0.25, 0.8
MOVIE_TOP_IN = 1.15                      # below the title band
MOVIE_H_IN = SLIDE_H_IN - MOVIE_TOP_IN - 0.25
TITLE_PT, SECTION_TITLE_PT, SENTENCE_PT, LANG_PT = 54, 28, 30, 20
BLANK_LAYOUT = 6                          # "Blank" in python-pptx's default template
MOVIE_VOLUME = 80000                      # PowerPoint's default (80 %)


def autoplay_timing(shape_id: int, duration_ms: int) -> str:
    """``p:timing`` that plays the movie ``shape_id`` once, as soon as the slide is shown.

    A main sequence whose first effect is a ``mediacall`` ``playFrom(0.0)`` triggered
    ``afterEffect`` on the sequence's begin (not a click), plus the movie's media node
    (no ``repeatCount``: it does not loop).
    """
    return f"""<p:timing xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main">
 <p:tnLst><p:par><p:cTn id="1" dur="indefinite" restart="never" nodeType="tmRoot"><p:childTnLst>
  <p:seq concurrent="1" nextAc="seek">
   <p:cTn id="2" dur="indefinite" nodeType="mainSeq"><p:childTnLst>
    <p:par><p:cTn id="3" fill="hold">
     <p:stCondLst><p:cond delay="indefinite"/><p:cond evt="onBegin" delay="0"><p:tn val="2"/></p:cond></p:stCondLst>
     <p:childTnLst><p:par><p:cTn id="4" fill="hold">
      <p:stCondLst><p:cond delay="0"/></p:stCondLst>
      <p:childTnLst><p:par>
       <p:cTn id="5" presetID="1" presetClass="mediacall" presetSubtype="0" fill="hold" nodeType="afterEffect">
        <p:stCondLst><p:cond delay="0"/></p:stCondLst>
        <p:childTnLst><p:cmd type="call" cmd="playFrom(0.0)"><p:cBhvr>
         <p:cTn id="6" dur="{duration_ms}" fill="hold"/>
         <p:tgtEl><p:spTgt spid="{shape_id}"/></p:tgtEl>
        </p:cBhvr></p:cmd></p:childTnLst>
       </p:cTn>
      </p:par></p:childTnLst>
     </p:cTn></p:par></p:childTnLst>
    </p:cTn></p:par>
   </p:childTnLst></p:cTn>
   <p:prevCondLst><p:cond evt="onPrev" delay="0"><p:tgtEl><p:sldTgt/></p:tgtEl></p:cond></p:prevCondLst>
   <p:nextCondLst><p:cond evt="onNext" delay="0"><p:tgtEl><p:sldTgt/></p:tgtEl></p:cond></p:nextCondLst>
  </p:seq>
  <p:video><p:cMediaNode vol="{MOVIE_VOLUME}">
   <p:cTn id="7" fill="hold" display="0"><p:stCondLst><p:cond delay="indefinite"/></p:stCondLst></p:cTn>
   <p:tgtEl><p:spTgt spid="{shape_id}"/></p:tgtEl>
  </p:cMediaNode></p:video>
 </p:childTnLst></p:cTn></p:par></p:tnLst>
</p:timing>"""


class PptxWriter:
    """Builds the deck with python-pptx and saves it to one path."""

    def __init__(self, deck: Deck):
        from pptx import Presentation
        from pptx.util import Inches

        self.deck = deck
        self.bg, self.fg, self.muted = COLOURS[deck.theme]
        self.prs = Presentation()
        self.prs.slide_width, self.prs.slide_height = Inches(SLIDE_W_IN), Inches(SLIDE_H_IN)

    def write(self, dest: Path) -> Path:
        self._title_slide()
        for s in self.deck.sections:
            if self.deck.stepped and s.beats:
                # a slide per beat: its piece plays on entering, so a clicker steps the beats
                for b in s.beats:
                    self._section_slide(s, b.clip, b.poster, b.duration, b.caption, f"{s.stem}-b{b.index:02d}")
            else:
                self._section_slide(s, s.clip, s.poster, s.duration, s.notes, s.stem)
        self.prs.save(str(dest))
        return dest

    # -- slides -------------------------------------------------------------------------

    def _new_slide(self):
        from pptx.dml.color import RGBColor

        slide = self.prs.slides.add_slide(self.prs.slide_layouts[BLANK_LAYOUT])
        fill = slide.background.fill
        fill.solid()
        fill.fore_color.rgb = RGBColor.from_string(self.bg)
        return slide

    def _text(self, slide, text: str, top_in: float, height_in: float, size_pt: int,
              colour: str, bold: bool = False, centred: bool = True, lead: str = ""):
        from pptx.dml.color import RGBColor
        from pptx.enum.text import PP_ALIGN
        from pptx.util import Inches, Pt

        box = slide.shapes.add_textbox(Inches(MARGIN_IN), Inches(top_in),
                                       Inches(SLIDE_W_IN - 2 * MARGIN_IN), Inches(height_in))
        tf = box.text_frame
        tf.word_wrap = True
        para = tf.paragraphs[0]
        para.alignment = PP_ALIGN.CENTER if centred else PP_ALIGN.LEFT
        if lead:  # the section number, muted, as the clip's own title card shows it
            num = para.add_run()
            num.text = lead
            num.font.size = Pt(size_pt)
            num.font.color.rgb = RGBColor.from_string(self.muted)
        run = para.add_run()
        run.text = text
        run.font.size = Pt(size_pt)
        run.font.bold = bold
        run.font.color.rgb = RGBColor.from_string(colour)
        return box

    def _title_slide(self) -> None:
        slide = self._new_slide()
        d = self.deck
        self._text(slide, d.title, 2.0, 1.2, TITLE_PT, self.fg, bold=True)
        self._text(slide, d.sentence, 3.5, 1.0, SENTENCE_PT, self.fg)
        self._text(slide, d.language, 4.7, 0.6, LANG_PT, self.muted)

    def _section_slide(self, s: SectionSlide, clip: Path, poster: Path, duration: float, notes: str,
                       name: str) -> None:
        from lxml import etree
        from pptx.util import Inches

        slide = self._new_slide()
        w = MOVIE_H_IN * 16 / 9
        left = (SLIDE_W_IN - w) / 2
        box = self._text(slide, s.title, TITLE_TOP_IN, TITLE_H_IN, SECTION_TITLE_PT,
                         self.fg, bold=True, centred=False, lead=f"{s.number:02d}   ")
        box.left, box.width = Inches(left), Inches(w)   # aligned with the movie below
        movie = slide.shapes.add_movie(str(clip), Inches(left), Inches(MOVIE_TOP_IN),
                                       Inches(w), Inches(MOVIE_H_IN), poster_frame_image=str(poster),
                                       mime_type="video/mp4")
        movie.name = name
        # the movie's alt text (PowerPoint's "Alt Text", what a screen reader says): the
        # section's title and summary, on the picture's non-visual properties
        movie._element.xpath("./p:nvPicPr/p:cNvPr")[0].set("descr", self.deck.alt_text(s))
        sld = slide._element
        for old in sld.findall("{http://schemas.openxmlformats.org/presentationml/2006/main}timing"):
            sld.remove(old)
        timing = etree.fromstring(autoplay_timing(movie.shape_id, max(1, round(duration * 1000))))
        # p:timing comes after p:clrMapOvr/p:transition and before p:extLst (CT_Slide order).
        ext = sld.find("{http://schemas.openxmlformats.org/presentationml/2006/main}extLst")
        if ext is not None:
            ext.addprevious(timing)
        else:
            sld.append(timing)
        slide.notes_slide.notes_text_frame.text = notes


def write_pptx(deck: Deck, dest: Path) -> Path:
    """Write ``deck`` as a PowerPoint file at ``dest`` (the caller renames it into place)."""
    return PptxWriter(deck).write(dest)
