// The studio's page: everything it asks goes to the loopback server that served it.
"use strict";

const WAIT_AFTER_TYPING_MS = 300;   // the page updates once typing has stopped this long
const POLL_MS = 700;                // how often a running render's progress is asked for
const STILLS_POLL_MS = 200;         // the stills' (each shown as soon as it is written)
const LABELS = {
  ja: {sentence: "文", follow: "追うトークン", lang: "言語", theme: "テーマ", voice: "声", both: "両方の言語",
       sections: "すべての節", script: "台本", outputs: "書き出し", render: "動画を書き出す", slides: "スライドを作る", present: "発表する",
       cancel: "中止", narrated: "ナレーション付き（選んだ声）", ownvoice: "録音した自分の声で", voicehead: "あなたの声", record: "録音ページを開く",
       figures: "数値", batch: "バッチファイル（CSV, TOML）…", quality: "画質", only: "節（空欄はすべて）"},
  en: {},
};
//: What the page writes itself (status lines), in the page's language; English by default.
const MESSAGES = {
  en: {
    clip: "rendering the clip at preview quality…", probing: "the layout probe is looking at every beat…",
    clean: "layout: no problem found", cancelled: "cancelled", failed: "failed",
    kept: "cancelled: the previous outputs are as they were", exit: (code) => `failed (exit ${code})`,
    stills: (done, total) => message("stills", done, total), missingVoice: " (not installed)",
    recorded: (n, total, folder) => `${n} of ${total} cues recorded in ${folder} (● not yet)`,
  },
  ja: {
    clip: "プレビュー画質でクリップを書き出し中…", probing: "レイアウト検査がすべてのビートを確認中…",
    clean: "レイアウト：問題なし", cancelled: "中止しました", failed: "失敗しました",
    kept: "中止しました：これまでの書き出しはそのままです", exit: (code) => `失敗しました（終了コード ${code}）`,
    stills: (done, total) => `静止画 ${done} / ${total}`, missingVoice: "（未インストール）",
    recorded: (n, total, folder) => `${total} 件中 ${n} 件を ${folder} に録音済み（● は未録音）`,
  },
};
const $ = (id) => document.getElementById(id);

/** A status line in the page's language (``MESSAGES``), with its arguments filled. */
function message(key, ...args) {
  const table = MESSAGES[$("lang").value] || MESSAGES.en;
  const m = key in table ? table[key] : MESSAGES.en[key];
  return typeof m === "function" ? m(...args) : m;
}
const state = {stills: null, slides: [], preview: null, stillsJob: null, renderJob: null, selected: null, timer: null, asked: 0, missing: new Set()};

async function api(path, body) {
  const init = body === undefined ? {} : {method: "POST", headers: {"Content-Type": "application/json"},
                                          body: JSON.stringify(body)};
  const r = await fetch(path, init);
  const data = r.headers.get("Content-Type").startsWith("application/json") ? await r.json() : await r.blob();
  if (!r.ok) throw new Error(data.error || r.statusText);
  return data;
}

function choice() {
  return {sentence: $("sentence").value, follow: $("follow").value, lang: $("lang").value,
          theme: $("theme").value, voice: $("voice").value, both: $("both").checked};
}

function el(tag, attrs, ...kids) {
  const e = document.createElement(tag);
  Object.entries(attrs || {}).forEach(([k, v]) => (k === "class" ? e.className = v : e.setAttribute(k, v)));
  kids.forEach((k) => e.append(k));
  return e;
}

function relabel(lang) {
  const words = LABELS[lang] || {};
  document.querySelectorAll("[data-t]").forEach((e) => {
    e.dataset.en = e.dataset.en || e.textContent;
    e.textContent = words[e.dataset.t] || e.dataset.en;
  });
  document.documentElement.lang = lang;
}

function showError(message) {
  $("error").hidden = !message;
  $("error").textContent = message || "";
  document.body.classList.toggle("invalid", !!message);
}

async function refresh() {
  const asked = ++state.asked;
  const c = choice();
  // the stills start with the script, not after it: the tiles of the sentence before name
  // the sections in view (the first time there are none yet, and they wait for the script)
  const early = document.querySelector(".tile") !== null;
  if (early) startStills(asked).catch(() => {});   // a bad sentence: the script's answer says why
  try {
    const p = await api("api/preview", c);
    if (asked !== state.asked) return;   // a newer request is on its way
    showError("");
    state.preview = p;
    drawFollow(p);
    drawScript(p);
    drawFigures(p);
    drawGrid(p);
    $("script-status").textContent = `${p.script.length} cues · ${p.seconds.toFixed(2)} s`;
    document.body.dataset.shown = p.sentence;   // what the script on the page is for
    if (!early) startStills(asked);
    else if (state.stillsJob) pollStills(state.stillsJob, false);   // the new tiles, at once
    checkRecordings();
  } catch (e) {
    if (asked === state.asked) {
      showError(e.message);
      document.body.dataset.shown = "";
    }
  }
}

function later() {
  clearTimeout(state.timer);
  state.timer = setTimeout(refresh, WAIT_AFTER_TYPING_MS);
}

function drawFollow(p) {
  const sel = $("follow");
  const keep = sel.value;
  sel.replaceChildren(el("option", {value: ""}, "—"));
  [...new Set(p.tokens.map((t) => t.replace(/[₀-₉]+$/, "")))].forEach((t) => sel.append(el("option", {value: t}, t)));
  sel.value = p.tokens.some((t) => t.startsWith(keep)) ? keep : "";
  if (!sel.value && p.tokens[p.follow]) sel.options[0].textContent = `— (${p.tokens[p.follow]})`;
}

function drawScript(p) {
  const lang = $("lang").value;
  const box = $("script");
  const top = box.scrollTop;
  box.replaceChildren();
  const titles = Object.fromEntries(p.sections.map((s) => [s.number, s.title]));
  let current = null;
  for (const cue of p.script) {
    if (cue.section !== current) {
      current = cue.section;
      box.append(el("div", {class: "section-head"}, `${String(current).padStart(2, "0")} ${titles[current] || ""}`));
    }
    const text = el("div", {class: "text", contenteditable: "true", spellcheck: "false"}, cue.texts[lang]);
    const pace = el("span", {class: "pace"}, `${cue.seconds.toFixed(1)} s`);
    const play = el("button", {class: "secondary", title: "play"}, "▶");
    const row = el("div", {class: "cue" + (state.missing.has(cue.id) ? " missing" : ""), "data-id": cue.id},
                   el("div", {class: "meta"}, el("span", {class: "id"}, cue.id), pace, play), text);
    Object.entries(cue.texts).filter(([l]) => l !== lang).forEach(([, t]) => row.append(el("div", {class: "other"}, t)));
    let editTimer = null;
    text.addEventListener("input", () => {
      clearTimeout(editTimer);
      editTimer = setTimeout(async () => {
        const r = await api("api/words/check", {text: text.innerText, lang});
        const worst = Math.max(...r.cues.map((c) => c.rate));
        pace.textContent = `${r.cues.length} cue${r.cues.length > 1 ? "s" : ""} · ${worst} chars/s (≤ ${r.limit})`;
        pace.className = "pace " + (worst <= r.limit + 0.05 ? "ok" : "bad");
      }, WAIT_AFTER_TYPING_MS);
    });
    text.addEventListener("blur", () => saveWords(cue, text, lang));
    play.addEventListener("click", () => say(cue, lang, text.innerText));
    box.append(row);
  }
  box.scrollTop = top;
}

async function saveWords(cue, node, lang) {
  const now = node.innerText.trim();
  if (now === cue.texts[lang].replace(/\n/g, " ").trim() || now === cue.texts[lang].trim()) return;
  try {
    await api("api/words", {lang, section: cue.section, key: cue.beat, text: now});
    showError("");
    refresh();
  } catch (e) {
    showError(e.message);
  }
}

async function say(cue, lang, text) {
  try {
    const wav = await api("api/say", {lang, voice: $("voice").value, text, section: cue.section, beat: cue.beat});
    new Audio(URL.createObjectURL(wav)).play();
  } catch (e) {
    showError(e.message);
  }
}

function drawFigures(p) {
  const t = el("table", {class: "figs"});
  for (const s of p.figures) {
    s.figures.forEach((f, k) => t.append(el("tr", {}, el("td", {class: "sec"}, k ? "" : String(s.section).padStart(2, "0")),
                                               el("td", {}, f.name), el("td", {}, f.text))));
  }
  $("figures").replaceChildren(t);
}

function tileOf(stem) { return document.querySelector(`.tile[data-stem="${stem}"]`); }

function drawGrid(p) {
  const grid = $("grid");
  grid.replaceChildren();
  for (const s of p.sections.filter((s) => !s.card)) {
    const tile = el("div", {class: "tile", "data-stem": s.stem, "data-number": s.number, title: s.title},
                    el("div", {class: "img"}, "…"), el("div", {class: "name"}, `${String(s.number).padStart(2, "0")} ${s.title}`));
    tile.addEventListener("click", () => openSection(s));
    grid.append(tile);
  }
}

async function startStills(asked) {
  if (state.stills === 0) return;
  const job = await api("api/jobs", {product: "stills", choice: choice(), sections: visibleSections()});
  if (asked !== state.asked) return;   // a newer sentence's stills replaced these
  state.stillsJob = job.id;
  pollStills(job.id);
}

function visibleSections() {
  // the sections in view first: the pipeline renders them in the order asked
  const tiles = [...document.querySelectorAll(".tile")];
  const inView = (t) => { const r = t.getBoundingClientRect(); return r.bottom > 0 && r.top < innerHeight; };
  const order = [...tiles.filter(inView), ...tiles.filter((t) => !inView(t))].map((t) => Number(t.dataset.number));
  return state.stills === null ? order : order.slice(0, state.stills);
}

async function pollStills(id, again = true) {
  if (id !== state.stillsJob) return;
  const job = await api(`api/jobs/${id}`);
  let done = 0;
  for (const [stem, ev] of Object.entries(job.sections)) {
    const tile = tileOf(stem);
    if (!tile) continue;
    tile.classList.toggle("running", ev.event === "start");
    if (ev.status === "rendered" || ev.status === "cached") {
      done++;
      const img = tile.querySelector("img");
      const src = `files/preview/stills/${stem}.png?h=${ev.hash}`;
      if (!img || img.dataset.src !== src) {
        const image = el("img", {alt: stem});
        image.dataset.src = src;
        image.src = src;
        tile.querySelector(".img").replaceChildren(image);
      }
    }
  }
  const total = Object.keys(job.sections).length > 0 || job.running ? visibleSections().length : 0;
  $("stills-status").textContent = job.running ? `stills ${done} / ${total} · ${job.seconds} s`
    : job.cancelled ? "" : message("stills", done, total) + (job.error ? ` · ${job.error}` : "");
  if (job.running && again) setTimeout(() => pollStills(id), STILLS_POLL_MS);
}

async function openSection(s) {
  document.querySelectorAll(".tile.selected").forEach((t) => t.classList.remove("selected"));
  tileOf(s.stem).classList.add("selected");
  $("detail").hidden = false;
  $("detail-title").textContent = `${String(s.number).padStart(2, "0")} ${s.title}`;
  $("detail-status").textContent = message("clip");
  $("detail-sheet").hidden = true;
  $("detail-verdict").textContent = message("probing");
  const job = await api("api/jobs", {product: "clips", choice: choice(), sections: [s.number]});
  const sheet = await api("api/jobs", {product: "sheets", choice: choice(), sections: [s.number]});
  const pollSheet = async () => {
    const j = await api(`api/jobs/${sheet.id}`);
    if (j.running) return setTimeout(pollSheet, POLL_MS);
    const ev = j.sections[s.stem];
    if (ev && ev.status === "rendered") {
      $("detail-sheet").src = `files/preview/sheets/${s.stem}.png?h=${ev.hash}`;
      $("detail-sheet").hidden = false;
      $("detail-verdict").textContent = ev.problems.length ? ev.problems.join("\n") : message("clean");
      $("detail-verdict").className = ev.problems.length ? "verdict bad" : "verdict ok";
      const tile = tileOf(s.stem);
      tile.dataset.verdict = ev.problems.length ? "bad" : "ok";
    } else {
      $("detail-verdict").textContent = j.error || (ev && ev.error) || "";
    }
  };
  pollSheet();
  const poll = async () => {
    const j = await api(`api/jobs/${job.id}`);
    if (j.running) return setTimeout(poll, POLL_MS);
    const ev = j.sections[s.stem];
    if (ev && (ev.status === "rendered" || ev.status === "cached")) {
      $("detail-clip").src = `files/preview/clips/${s.stem}.mp4?h=${ev.hash}`;
      $("detail-status").textContent = "";
    } else {
      $("detail-status").textContent = j.error || (j.cancelled ? message("cancelled") : message("failed"));
    }
  };
  poll();
}

async function render(product, presenter = null) {
  state.presenter = presenter;
  try {
    const only = $("only").value.trim();
    const job = await api("api/jobs", {product, choice: choice(), narration: $("narration").checked,
                                       recordings: $("own-voice").checked, quality: $("quality").value,
                                       sections: only || null});
    state.renderJob = job.id;
    $("cancel").disabled = false;
    pollRender(job.id);
  } catch (e) {
    showError(e.message);
  }
}

async function pollRender(id) {
  const job = await api(`api/jobs/${id}`);
  const box = $("progress");
  box.replaceChildren();
  // a batch reports variants, not sections: its progress is the command's own, in its log
  const stems = job.product === "batch" || Object.keys(job.sections).length || !state.preview
    ? Object.keys(job.sections) : state.preview.sections.map((s) => s.stem);
  if (job.product === "batch") box.append(el("div", {class: "muted"}, `batch: ${job.running ? "rendering" : "done"} · ${job.seconds} s`));
  for (const stem of stems) {
    const ev = job.sections[stem] || {};
    const pct = ev.status ? 100 : ev.event === "start" ? 50 : 0;
    const bar = el("div", {class: "bar"}, el("div", {}));
    bar.firstChild.style.width = pct + "%";
    box.append(el("div", {class: "prow", "data-stem": stem}, el("span", {}, stem), bar,
                  el("span", {class: "st"}, ev.status || (ev.event === "start" ? "…" : ""))));
  }
  if (job.running) return setTimeout(() => pollRender(id), POLL_MS);
  $("cancel").disabled = true;
  const out = $("outputs");
  out.replaceChildren();
  if (job.cancelled) out.append(el("li", {}, message("kept")));
  else if (job.code !== 0) out.append(el("li", {}, job.error || message("exit", job.code)));
  const files = {slides: state.slides,   // every format's file (api/state)
                 batch: ["batch/batch.json"]}[job.product] || ["explainer.mp4", "explainer.srt", "transcript.html"];
  files.forEach((f) => out.append(el("li", {}, el("a", {href: `files/${f}`, download: f.split("/").pop()}, f))));
  if (job.product === "explainer") {
    Object.keys(job.sections).forEach((stem) => out.append(el("li", {}, el("a", {href: `files/clips/${stem}.mp4`,
      download: `${stem}.mp4`}, `clips/${stem}.mp4`))));
  }
  box.dataset.done = job.cancelled ? "cancelled" : String(job.code);
  if (state.presenter) {   // Present: the stepped deck just written, in the window opened on the click
    if (job.product === "slides" && job.code === 0 && !job.cancelled) state.presenter.location.href = "files/slides/index.html";
    else state.presenter.close();
    state.presenter = null;
  }
}

async function checkRecordings() {
  if (!state.preview) return;
  const r = await api("api/recordings", {ids: state.preview.script.map((c) => c.id)});
  state.missing = new Set(r.missing);
  document.querySelectorAll(".cue").forEach((c) => c.classList.toggle("missing", state.missing.has(c.dataset.id)));
  $("recordings").textContent = message("recorded", state.preview.script.length - r.missing.length, state.preview.script.length, r.folder);
}

async function init() {
  const s = await api("api/state");
  state.stills = s.stills;
  state.slides = s.slides;
  $("lang").value = s.lang;
  relabel(s.lang);
  const voices = $("voice");
  const fill = () => {
    voices.replaceChildren(...s.voices.filter((v) => v.lang === $("lang").value)
      .map((v) => el("option", {value: v.name}, v.name + (v.default ? " *" : "") + (v.installed ? "" : message("missingVoice")))));
    const d = s.voices.find((v) => v.lang === $("lang").value && v.default);
    if (d) voices.value = d.name;
  };
  fill();
  $("sentence").addEventListener("input", later);
  ["follow", "voice", "both"].forEach((id) => $(id).addEventListener("change", later));
  $("lang").addEventListener("change", () => { fill(); relabel($("lang").value); later(); });
  $("theme").addEventListener("change", () => {
    document.body.className = "theme-" + $("theme").value;
    later();
  });
  $("render-explainer").addEventListener("click", () => render("explainer"));
  $("render-slides").addEventListener("click", () => render("slides"));
  // the window opens on the click (a window opened later, when the deck is written, is a popup
  // a browser blocks); the deck steps through the caption beats (README: Present it live)
  $("present").addEventListener("click", () => render("slides", window.open("about:blank", "_blank")));
  $("batch-file").addEventListener("change", async () => {
    const file = $("batch-file").files[0];
    if (!file) return;
    try {
      const job = await api("api/batch", {name: file.name, text: await file.text(), quality: $("quality").value,
                                          sections: $("only").value.trim() || null});
      state.renderJob = job.id;
      $("cancel").disabled = false;
      pollRender(job.id);
    } catch (e) {
      showError(e.message);
    }
    $("batch-file").value = "";
  });
  $("cancel").addEventListener("click", () => state.renderJob && api(`api/jobs/${state.renderJob}/cancel`, {}));
  $("recorder").addEventListener("click", async () => {
    const r = await api("api/recorder", {lang: $("lang").value});
    window.open(r.url, "_blank");
  });
  document.addEventListener("visibilitychange", checkRecordings);
  refresh();
}

init();
