// The exercise tab: the sheet (title, seed, exercises) is an ordinary form,
// drawn and solved in the worker like any request; its answer is shown as
// questions with answer boxes. Typed answers are checked by the core
// (checkAnswer), kept in this browser's local storage per sheet, and
// exported as CSV. Nothing here computes an answer.
import { core } from './core.js';
import { Section } from './section.js';
import { download, el, fmt, marked } from './dom.js';
import { stateParams } from './link.js';
import { worksCited } from './result.js';

const STORE = 'dlt-calc:answers:';

/** Local storage, or nothing where the browser refuses it (a file page in
 * some browsers): answers then last as long as the page. */
function storage() {
  try {
    const s = globalThis.localStorage;
    s.setItem(`${STORE}probe`, '1');
    s.removeItem(`${STORE}probe`);
    return s;
  } catch {
    return null;
  }
}

function csvLine(cells) {
  return cells.map((c) => {
    const s = String(c ?? '');
    return /[",\n]/.test(s) ? `"${s.replaceAll('"', '""')}"` : s;
  }).join(',');
}

/** Markup written in Rust (<i>, <sub>, <sup>) as plain text. */
function plain(html) {
  const d = document.createElement('div');
  d.innerHTML = html;
  return d.textContent;
}

/** The sheet in a file's `text`, or an error saying what file was expected
 * and what `name` holds instead (not the JSON parser's "Unexpected
 * token"). */
export function sheetOf(name, text, model) {
  const expected = 'expected an exercise sheet: a JSON file saved with "Download the sheet (JSON)"';
  const start = text.trim().slice(0, 40).replace(/\s+/g, ' ');
  const shown = start ? `it starts with "${start}${text.trim().length > 40 ? '…' : ''}"` : 'it is empty';
  let request;
  try {
    request = JSON.parse(text);
  } catch {
    const kind = /^[^{[\n]*,/.test(text.trim()) ? 'a CSV table, not JSON' : 'not JSON';
    throw new Error(`${name} is ${kind} (${shown}); ${expected}`);
  }
  if (request?.model !== model) {
    const what = typeof request?.model === 'string'
      ? `a request of the ${request.model} model` : 'JSON without a "model"';
    throw new Error(`${name} is ${what}, not an exercise sheet ("model": "${model}"); ${expected}`);
  }
  return request;
}

/** An exercise's answer as the core wrote it: "makespan T = 74.69 s,
 * within 0.5 %", or the right option of a choice. */
function answerText(e) {
  return e.answer.kind === 'number' ? `${plain(e.answer.asked)} = ${e.shown}` : e.shown;
}

/** A verdict in words: "Right: 13.12 s.", "Not right: … .", "Not read: … ."
 * (the core's message may itself begin with "right"). */
function verdictText(v) {
  const message = String(v.message ?? '').trim();
  if (v.status === 'right') {
    const rest = message.replace(/^right\b[:.,—-]?\s*/i, '');
    return rest ? `Right: ${rest}.` : 'Right.';
  }
  return v.status === 'wrong' ? `Not right: ${message}.` : `Not read: ${message}.`;
}

export class ExerciseSection extends Section {
  constructor(tab, ui) {
    super(tab, ui);
    this.store = storage();
    this.memory = {};
  }

  build() {
    this.kinds = new Map(core.exerciseKinds().map((k) => [k.id, k]));
    super.build();
    const form = this.root.querySelector('form');
    // The sheet's settings are for whoever makes it; a student mostly
    // reads the exercises below.
    const details = el('details', { className: 'sheet-settings', id: 'exercises-settings' },
      el('summary', {}, 'The sheet: title, seed and exercises (for teachers)'));
    form.replaceWith(details);
    details.append(form);
    const reseed = el('button', { type: 'button', id: 'exercises-new-seed' }, 'New seed');
    reseed.addEventListener('click', () => {
      const s = this.read();
      s.scalars.seed = String(Math.floor(Math.random() * 1_000_000));
      this.fill(s);
      this.changed({ now: true });
      this.commit();
    });
    const save = el('button', { type: 'button', id: 'exercises-save' }, 'Download the sheet (JSON)');
    save.addEventListener('click', () => download('exercise-sheet.json',
      new Blob([JSON.stringify(this.request(), null, 2)], { type: 'application/json' })));
    const file = el('input', { type: 'file', accept: '.json,application/json', id: 'exercises-open', className: 'sr-only' });
    const open = el('label', { htmlFor: file.id, className: 'button' }, 'Open a sheet (JSON)');
    file.addEventListener('change', () => this.openFile(file));
    this.key = el('button', { type: 'button', id: 'exercises-key', disabled: true }, 'Answer key (CSV)');
    this.key.addEventListener('click', () => this.response && download('answer-key.csv',
      new Blob([core.responseCsv(this.response)], { type: 'text/csv' })));
    // Printed: the sheet as a handout (blank answer lines), or its key.
    const print = el('button', { type: 'button', id: 'exercises-print' }, 'Print the sheet');
    print.addEventListener('click', () => window.print());
    this.printKey = el('button', { type: 'button', id: 'exercises-print-key', disabled: true }, 'Print answer key');
    this.printKey.addEventListener('click', () => {
      document.documentElement.classList.add('print-key');
      window.print();
    });
    // The answer key is printed once, not with the next printed sheet.
    window.addEventListener('afterprint', () => document.documentElement.classList.remove('print-key'));
    form.querySelector('.actions').append(reseed, save, open, file, this.key, print, this.printKey);
  }

  /** The link that opens this sheet: its own inputs alone (the other tabs
   * keep their defaults), so that it is short enough to print. */
  sheetLink() {
    const params = new URLSearchParams({ tab: this.spec.id });
    stateParams(this, this.stateOf(this.computed ? JSON.parse(this.computed) : this.request()), params);
    const url = new URL(location.href);
    url.search = params.toString().replaceAll('%2C', ',');
    url.hash = '';
    return url.href;
  }

  /** The answer key (each exercise's answer and worked solution, as the
   * core wrote them), printed alone by "Print answer key". */
  answerKey(paper, link) {
    const items = paper.exercises.map((e) => el('li', { value: e.number },
      el('strong', {}, e.title), el('p', { className: 'key-answer' }, el('strong', {}, 'Answer: '),
        ...(e.answer.kind === 'number' ? [marked(el('span'), e.answer.asked), ` = ${e.shown}`] : [e.shown])),
      ...e.solution.map((step) => marked(el('p'), step))));
    return el('section', { className: 'answer-key', id: 'exercises-answer-key' },
      el('h3', {}, `Answer key: ${paper.title || 'Exercise sheet'}`),
      el('p', {}, `Seed ${paper.seed}; the sheet: `, el('a', { href: link }, link)),
      el('ol', {}, ...items));
  }

  /** A sheet from a JSON file the teacher shared. */
  async openFile(input) {
    const f = input.files?.[0];
    input.value = '';
    if (!f) return;
    try {
      const request = sheetOf(f.name, await f.text(), this.tab.model);
      this.fill(this.stateOf(request));
      this.changed({ now: true });
      this.commit();
    } catch (err) {
      this.showError(`The sheet could not be opened: ${err.message}`);
    }
  }

  row(i, values) {
    const tr = super.row(i, values);
    for (const option of tr.querySelectorAll('select option')) {
      const kind = this.kinds.get(option.value);
      if (kind) option.textContent = `${kind.title} (${kind.id})`;
    }
    return tr;
  }

  // ---- answers kept per sheet ----------------------------------------------

  sheetKey() {
    return STORE + this.computed;
  }

  /** The key an older page kept this sheet's answers under: the same sheet
   * naming its exercises as they were first published (`m2-split`). */
  formerKey() {
    const aliases = this.spec.rows?.columns?.find((c) => c.aliases)?.aliases ?? {};
    let text = this.computed ?? '';
    for (const [old, id] of Object.entries(aliases)) text = text.replaceAll(`"exercise":"${id}"`, `"exercise":"${old}"`);
    return STORE + text;
  }

  answers() {
    const key = this.sheetKey();
    if (!this.store) return this.memory[key] ?? {};
    try {
      let kept = this.store.getItem(key);
      // Answers kept before the exercises were renamed move to the new key.
      if (kept === null) {
        kept = this.store.getItem(this.formerKey());
        if (kept !== null) this.store.setItem(key, kept);
      }
      return JSON.parse(kept ?? '{}') ?? {};
    } catch { return {}; }
  }

  record(number, change) {
    const all = this.answers();
    all[number] = { tries: 0, hints: 0, solution: false, ...all[number], ...change };
    const key = this.sheetKey();
    if (this.store) {
      try { this.store.setItem(key, JSON.stringify(all)); } catch { this.memory[key] = all; }
    } else {
      this.memory[key] = all;
    }
    return all[number];
  }

  // ---- the sheet -------------------------------------------------------------

  show(response) {
    const paper = response.report ?? response;
    this.paper = paper;
    this.key.disabled = false;
    this.printKey.disabled = false;
    const saved = this.answers();
    const items = paper.exercises.map((e) => this.exercise(e, saved[e.number] ?? {}));
    const csv = el('button', { type: 'button', id: 'exercises-csv' }, 'Download my answers (CSV)');
    csv.addEventListener('click', () => this.exportAnswers());
    const clear = el('button', { type: 'button', id: 'exercises-clear' }, 'Clear my answers');
    clear.addEventListener('click', () => {
      if (!confirm('Clear every answer of this sheet kept in this browser?')) return;
      if (this.store) this.store.removeItem(this.sheetKey());
      delete this.memory[this.sheetKey()];
      this.show(response);
    });
    const title = el('h3', { id: 'exercises-sheet-title' }, paper.title || 'Exercise sheet');
    const about = el('p', { className: 'note' }, `Seed ${paper.seed}; ${paper.exercises.length} exercises. `
      + (this.store ? 'Your answers are kept in this browser.' : 'This browser does not keep data for this page: '
        + 'download your answers before closing it.'));
    // Printed (a handout): a line for the student's name and the date, the
    // link that reopens the sheet and the works it cites.
    const link = this.sheetLink();
    const blank = (name) => el('span', { className: `blank ${name}` });
    const head = el('p', { className: 'sheet-head print-only', id: 'exercises-sheet-head' },
      'Name: ', blank('name'), ' Date: ', blank('date'), ` Seed ${paper.seed}`);
    const online = el('p', { className: 'sheet-link print-only', id: 'exercises-sheet-link' },
      'This sheet online: ', el('a', { href: link }, link));
    const works = worksCited(paper.exercises.map((e) => e.source), this.ui.works ?? []);
    this.result.replaceChildren(title, head, about, el('ol', { className: 'exercises' }, ...items),
      el('p', { className: 'answer-tools' }, csv, ' ', clear), online, ...(works ? [works] : []),
      this.answerKey(paper, link));
    this.result.hidden = false;
    this.result.dataset.drawn = String(Number(this.result.dataset.drawn ?? 0) + 1);
  }

  exercise(e, saved) {
    const id = `exercise-${e.number}`;
    const cite = (this.ui.works ?? []).findIndex((w) => w.key === e.source);
    const head = el('h4', {}, `${e.title} `,
      cite >= 0 ? el('a', { href: `#bib-${e.source}`, className: 'cite', title: this.ui.works[cite].title }, `[${cite + 1}]`) : null);
    const question = el('p', { className: 'question' });
    question.innerHTML = e.question;
    const verdict = el('p', { className: 'verdict-line', id: `${id}-verdict`, role: 'status', 'aria-live': 'polite' });
    const answer = e.answer.kind === 'choice' ? this.choice(e, id, saved) : this.number(e, id, saved);
    const check = el('button', { type: 'submit', className: 'primary', id: `${id}-check` }, 'Check');
    const form = el('form', { className: 'answer', id: `${id}-form`, noValidate: true }, answer, check);
    const say = (v) => {
      verdict.textContent = verdictText(v);
      verdict.className = `verdict-line ${v.status}`;
    };
    if (saved.status) say({ status: saved.status, message: saved.message ?? '' });
    form.addEventListener('submit', (ev) => {
      ev.preventDefault();
      const typed = this.typed(form);
      const v = core.checkAnswer(e.answer, typed);
      const before = this.answers()[e.number] ?? {};
      // Nothing typed (or picked) is no answer: the kept one stays.
      if (typed.trim() === '') {
        // The last answer that was checked: an unreadable one never was.
        const last = before.checked ?? (before.status !== 'unreadable' ? before.typed : undefined);
        const kept = last ? ` Your last answer (${last}) is kept.` : '';
        verdict.textContent = `${verdictText(v)}${kept}`;
        verdict.className = `verdict-line ${v.status}`;
        return;
      }
      say(v);
      this.record(e.number, {
        typed, status: v.status, message: v.message, at: new Date().toISOString(),
        checked: v.status === 'unreadable' ? before.checked : typed,
        tries: (before.tries ?? 0) + (v.status === 'unreadable' ? 0 : 1),
      });
    });
    // Hints one at a time, then the worked solution.
    const hints = el('ol', { className: 'hints', id: `${id}-hints` });
    const hintButton = el('button', { type: 'button', id: `${id}-hint` });
    const label = () => {
      const shown = hints.children.length;
      hintButton.textContent = shown < e.hints.length ? `Hint (${shown + 1} of ${e.hints.length})` : 'No more hints';
      hintButton.disabled = shown >= e.hints.length;
    };
    const addHint = () => {
      const li = el('li');
      li.innerHTML = e.hints[hints.children.length];
      hints.append(li);
      label();
    };
    for (let k = 0; k < Math.min(saved.hints ?? 0, e.hints.length); k++) addHint();
    label();
    hintButton.addEventListener('click', () => {
      addHint();
      this.record(e.number, { hints: hints.children.length });
    });
    const solution = el('div', { className: 'solution', id: `${id}-solution`, hidden: true },
      el('p', {}, el('strong', {}, 'Answer: '), answerText(e)),
      ...e.solution.map((step) => { const p = el('p'); p.innerHTML = step; return p; }));
    const solve = el('button', { type: 'button', id: `${id}-show-solution` }, 'Worked solution');
    const reveal = () => { solution.hidden = false; solve.disabled = true; };
    if (saved.solution) reveal();
    solve.addEventListener('click', () => {
      if (!confirm('Show the answer and the worked solution?')) return;
      reveal();
      this.record(e.number, { solution: true });
    });
    const open = el('button', { type: 'button', id: `${id}-open` }, 'Open in the calculator');
    open.addEventListener('click', () => this.ui.open?.(e.request));
    return el('li', { className: 'exercise', id },
      head, question, form, verdict, el('p', { className: 'exercise-tools' }, hintButton, ' ', solve, ' ', open), hints, solution);
  }

  number(e, id, saved) {
    const input = el('input', { id: `${id}-answer`, className: 'text', autocomplete: 'off', spellcheck: false,
      inputMode: 'decimal', value: saved.typed ?? '', placeholder: 'e.g. 5.75 or 1.2e5' });
    const label = el('label', { htmlFor: input.id });
    label.innerHTML = `${e.answer.asked} =`;
    // What counts as right is said before the first try.
    const tolerance = Number.isFinite(e.answer.tolerance)
      ? el('span', { className: 'tolerance note', id: `${id}-tolerance` }, `(within ${fmt(e.answer.tolerance * 100)} % counts)`) : null;
    if (tolerance) input.setAttribute('aria-describedby', tolerance.id);
    return el('span', { className: 'field' }, label, input,
      e.answer.unit ? el('span', { className: 'unit' }, e.answer.unit) : null, tolerance);
  }

  choice(e, id, saved) {
    const group = el('fieldset', { className: 'choices', id: `${id}-answer` }, el('legend', { className: 'sr-only' }, 'Your answer'));
    e.answer.options.forEach((option, k) => {
      const input = el('input', { type: 'radio', name: `${id}-choice`, value: String(k + 1), id: `${id}-option-${k + 1}`,
        checked: saved.typed === String(k + 1) });
      group.append(el('label', { htmlFor: input.id, className: 'check' }, input, ` ${option}`));
    });
    return group;
  }

  typed(form) {
    const radio = form.querySelector('input[type="radio"]:checked');
    if (radio) return radio.value;
    return form.querySelector('input.text')?.value ?? '';
  }

  exportAnswers() {
    const paper = this.paper;
    if (!paper) return;
    const saved = this.answers();
    const lines = [csvLine(['sheet', 'seed', 'number', 'exercise', 'question', 'answer given', 'result', 'tries',
      'hints used', 'solution shown', 'last checked'])];
    for (const e of paper.exercises) {
      const a = saved[e.number] ?? {};
      const given = e.answer.kind === 'choice' && a.typed ? e.answer.options[Number(a.typed) - 1] ?? a.typed : a.typed;
      lines.push(csvLine([paper.title, paper.seed, e.number, e.template, plain(e.question), given ?? '',
        a.status ?? 'not answered', a.tries ?? 0, a.hints ?? 0, a.solution ? 'yes' : 'no', a.at ?? '']));
    }
    download('my-answers.csv', new Blob([`${lines.join('\n')}\n`], { type: 'text/csv' }));
  }
}
