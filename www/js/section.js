// One calculator tab: a form built from the model's description in Rust
// (fields.js, machines.js), its state in the URL (link.js), field messages
// from the wasm core, runs in the shared worker, and the result (result.js).
import { core, isCrash } from './core.js';
import { Cancelled, Crashed } from './compute.js';
import { $, el, marked, readable, secs } from './dom.js';
import { fields, fromRequest, toRequest, viewOptions } from './form.js';
import { fit, presetTexts, presetWidths, scalar } from './fields.js';
import { machineRow, machineTable, revealMessages } from './machines.js';
import { TABLE_MISSING, TABLE_PLACEHOLDER, showTable } from './measurements.js';
import { fromParams, toParams } from './link.js';
import { showResult } from './result.js';

/** The longest request (JSON characters) checked on the page as it is
 * typed; a longer one (a pasted table of 10⁵ rows, whose check takes some
 * 150 ms) is checked by the worker when it computes, which names its first
 * problem in the same place. */
const LIVE_CHECK = 200_000;

/** The most characters a text field shows whole at its usual 14rem. */
const TEXT_CHARS = 24;

/** The places in the bibliography (`works`) of the works a tab cites. */
function cited(spec, works) {
  return (spec.sources ?? []).map((key) => works.findIndex((w) => w.key === key)).filter((n) => n >= 0);
}

/** The tab's "About the model" panel: its formulas (from Rust), folded,
 * and the works they come from. */
function about(spec, works) {
  const panel = el('details', { className: 'about', id: `${spec.id}-about` }, el('summary', {}, 'About the model: formulas'));
  const list = el('dl');
  for (const f of spec.about ?? []) list.append(marked(el('dt'), f.what), marked(el('dd'), f.formula));
  const from = el('p', { className: 'explain' }, 'From ');
  const places = cited(spec, works);
  places.forEach((n, k) => from.append(k ? ', ' : '', el('a', { href: `#bib-${works[n].key}` }, `[${n + 1}] ${works[n].title}`)));
  from.append('.');
  panel.append(list);
  if (places.length) panel.append(from);
  return panel;
}

/** The value at `field` (`machines[1].rate`) of `request`. */
function at(request, field) {
  return String(field ?? '').split(/[.[\]]+/).filter(Boolean).reduce((v, k) => v?.[k], request);
}

export class Section {
  /**
   * @param tab    the model's tab: {model, number, former, form, presets} (from Rust)
   * @param ui     shared page services: computer, status(text, busy), onChange()
   */
  constructor(tab, ui) {
    this.tab = tab;
    // One id names the model everywhere: the tab, its elements and, with a
    // dot, its keys in a link.
    this.spec = { ...tab.form, id: tab.model, prefix: `${tab.model}.` };
    this.ui = ui;
    this.root = el('section', { id: this.spec.id, role: 'tabpanel', hidden: true, 'aria-labelledby': `tab-${this.spec.id}` });
    const h2 = marked(el('h2'), this.spec.title);
    // The citation, each work it names linked to the bibliography.
    const cite = el('span', { className: 'cite' }, `(${this.spec.citation.replaceAll('&amp;', '&')}`);
    for (const n of cited(this.spec, ui.works ?? [])) {
      cite.append(' ', el('a', { href: `#bib-${ui.works[n].key}`, title: ui.works[n].title }, `[${n + 1}]`));
    }
    cite.append(')');
    h2.append(' ', cite);
    this.root.append(h2, marked(el('p', { className: 'explain' }), this.spec.intro), about(this.spec, ui.works ?? []), el('div', { className: 'form-slot' }));
    this.response = null;
    this.debounce = 0;
    this.build();
  }

  /** The request of the form as it stands. */
  request() {
    return toRequest(this.tab.model, this.spec, this.read());
  }

  /** The form state of a request (a preset or a link). */
  stateOf(request) {
    return fromRequest(this.spec, request);
  }

  /** The view options the form sets (e.g. overlays). */
  view() {
    return viewOptions(this.spec, this.read());
  }

  // ---- the form ---------------------------------------------------------

  /** Builds the form: preset chooser, fields, table of rows, actions. */
  build() {
    const { spec } = this;
    this.widths = presetWidths(this.tab, spec);
    this.known = presetTexts(this.tab, spec);
    this.fieldKinds = Object.fromEntries(fields(spec).map((f) => [f.key, f.kind]));
    const form = el('form', { noValidate: true, id: `${spec.id}-form` });
    const presets = el('select', { id: `${spec.id}-preset`, 'aria-label': 'preset' },
      ...this.tab.presets.map(([name, label]) => el('option', { value: name }, label)));
    const load = el('button', { type: 'button', id: `${spec.id}-load-preset` }, 'Load preset');
    load.addEventListener('click', () => {
      // The "fitted" entry is no preset: it names where the inputs came from.
      if (!presets.value) return;
      this.fill(this.stateOf(core.example(presets.value)));
      this.showOpened(null);
      this.changed({ now: true });
      this.commit();
    });
    this.presets = presets;
    this.openedNote = el('div', { className: 'opened', id: `${spec.id}-opened`, role: 'status', hidden: true });
    form.append(el('div', { className: 'row' }, el('label', { htmlFor: presets.id }, 'Preset'), presets, load), this.openedNote);

    for (const group of spec.groups) {
      const row = el('div', { className: 'row' });
      if (group.legend) row.append(marked(el('span', { className: 'legend' }), group.legend));
      for (const f of group.fields) row.append(...scalar(this, f));
      form.append(row);
    }
    if (spec.rows) form.append(...machineTable(this));
    const compute = el('button', { type: 'submit', className: 'primary', id: `${spec.id}-compute` }, 'Compute');
    const copy = el('button', { type: 'button', id: `${spec.id}-copy-link` }, 'Copy link');
    copy.addEventListener('click', () => this.ui.copyLink(this.sheetLink?.()));
    form.append(el('div', { className: 'row actions' }, compute, copy));
    form.addEventListener('input', () => this.changed());
    // A value finished (a field left, a box ticked, a choice made) or
    // Compute pressed: the input set is a history entry; typing is not.
    form.addEventListener('change', () => this.commit());
    form.addEventListener('submit', (e) => { e.preventDefault(); this.changed({ now: true, again: true, focus: true }); this.commit(); });

    this.error = el('p', { className: 'error', role: 'alert', hidden: true, id: `${spec.id}-error` });
    this.result = el('div', { className: 'result', hidden: true, id: `${spec.id}-result` });
    this.staleNote = el('p', { className: 'stale-note', role: 'status', hidden: true, id: `${spec.id}-stale` });
    $('.form-slot', this.root).replaceChildren(form, this.error, this.staleNote, this.result);
  }

  /** Makes the inputs as they stand a history entry (Back returns to the
   * previous ones), when they are valid and this tab is on screen. */
  commit() {
    if (!this.wasInvalid && this.ui.isActive(this)) this.ui.onCommit?.();
  }

  /** Dims the result, with `why`, while it is not for the inputs as they
   * stand; undims it when it is. */
  markStale(why) {
    const stale = Boolean(why) && Boolean(this.response);
    this.result.classList.toggle('stale', stale);
    this.staleNote.hidden = !stale;
    this.staleNote.textContent = stale ? why : '';
  }

  /** Says, above the form, where inputs opened from another tab came
   * from (`opened`: {changes, note, back, from}, or null to say nothing):
   * the preset menu names them, each changed value shows old → new with
   * its unit, and `back` is a button that takes these inputs to the other
   * tab's field that checks a tab's inputs (M9's measured runs). */
  showOpened(opened) {
    const { presets, openedNote: box } = this;
    presets.querySelector('option[value=""]')?.remove();
    box.replaceChildren();
    box.hidden = !opened?.changes?.length;
    if (box.hidden) return;
    const from = opened.from;
    const label = `fitted from your measurements (${from.spec.tab} tab)`;
    presets.prepend(el('option', { value: '', disabled: true }, label));
    presets.value = '';
    const list = el('ul', { className: 'changes' });
    this.openedValues = [];
    for (const c of opened.changes) {
      const item = el('li', {}, el('span', { className: 'what' }, c.what), ': ',
        readable(el('del'), c.from), ' → ', readable(el('strong'), c.to), c.unit ? ` ${c.unit}` : '');
      if (c.why) item.append(readable(el('span', { className: 'why' }), ` — ${c.why}`));
      const edited = el('span', { className: 'edited', hidden: true });
      item.append(edited);
      this.openedValues.push({ field: c.field, was: null, item, edited });
      list.append(item);
    }
    box.append(el('p', {}, el('strong', {}, `Opened from the ${from.spec.tab} tab. `),
      'Changed from the preset (preset value → fitted value); every other input is the preset\'s:'), list);
    if (opened.note) box.append(el('p', { className: 'note' }, opened.note));
    const actions = el('div', { className: 'row actions' });
    const back = opened.back && fields(from.spec).find((f) => f.from_tabs?.includes(this.tab.model));
    if (back) {
      const check = el('button', { type: 'button', id: `${this.spec.id}-check-runs` }, opened.back);
      check.addEventListener('click', () => from.takeInputs(back, this));
      actions.append(check);
    }
    const forget = el('button', { type: 'button', id: `${this.spec.id}-opened-close` }, 'Hide this note');
    forget.addEventListener('click', () => { box.hidden = true; });
    actions.append(forget);
    box.append(actions);
  }

  /** Marks each value the opened note lists that the user has changed
   * since (the note's "preset → fitted" no longer holds for it). */
  followOpened(request) {
    for (const v of this.openedValues ?? []) {
      // The first request after opening (its computation) is the opened one.
      v.was ??= JSON.stringify(at(request, v.field)) ?? '';
      const changed = (JSON.stringify(at(request, v.field)) ?? '') !== v.was;
      v.item.classList.toggle('superseded', changed);
      v.edited.hidden = !changed;
      v.edited.textContent = changed ? ' — since changed by you: the result is for your value' : '';
    }
  }

  /** Puts the inputs of tab `other` in this tab's field `f` (one that
   * takes a tab's inputs) and shows this tab at the next field of `f`'s
   * group (the runs to check them against). */
  takeInputs(f, other) {
    const request = other.request();
    if (core.problems(request).length > 0) {
      other.ui.status(`Fix the marked fields of the ${other.spec.tab} tab first.`);
      return;
    }
    const input = this.root.querySelector(`[data-key="${CSS.escape(f.key)}"]`);
    input.value = JSON.stringify(request);
    input.dispatchEvent(new Event('change'));
    this.ui.showTab(this.spec.id);
    this.changed({ now: true });
    const group = this.spec.groups.find((g) => g.fields.some((x) => x.key === f.key));
    const next = group?.fields[group.fields.findIndex((x) => x.key === f.key) + 1];
    const target = next && this.root.querySelector(`[data-key="${CSS.escape(next.key)}"]`);
    (target ?? input).focus();
    (target ?? input).scrollIntoView({ block: 'center' });
  }

  /** Row `i` of the table of rows, showing `values`. */
  row(i, values) {
    return machineRow(this, i, values);
  }

  /** Puts a state ({scalars: {key: text|bool}, rows: [{key: text}]}) in the form. */
  fill(state) {
    for (const input of this.root.querySelectorAll('form > .row [data-key]')) {
      const v = state.scalars[input.dataset.key];
      if (this.fieldKinds[input.dataset.key] === 'csv') {
        const f = fields(this.spec).find((x) => x.key === input.dataset.key);
        input.placeholder = state.missing?.includes(input.dataset.key) ? TABLE_MISSING : f?.placeholder || TABLE_PLACEHOLDER;
        showTable(input, v ?? '');
        continue;
      }
      if (input.type === 'checkbox') input.checked = Boolean(v);
      else if (input.tagName === 'SELECT') input.value = v || input.options[0]?.value || '';
      else {
        input.value = v ?? '';
        // A link's longer value is shown whole too.
        if (input.inputMode === 'decimal') fit(input, Math.max(this.widths[input.dataset.key] ?? 0, input.value.length));
        // A text field (a map's levels) as wide as its value, within the form.
        else if (input.classList.contains('text') && input.value.length > TEXT_CHARS) {
          input.style.width = `min(100%, calc(${input.value.length + 1}ch + 0.8rem))`;
        }
      }
    }
    if (this.spec.rows) this.tbody.replaceChildren(...state.rows.map((r, i) => this.row(i, r)));
    for (const sync of this.syncs ?? []) sync();
  }

  /** The form's state. */
  read() {
    const scalars = {};
    for (const input of this.root.querySelectorAll('form > .row [data-key]')) {
      scalars[input.dataset.key] = input.type === 'checkbox' ? input.checked : input.whole ?? input.value;
    }
    const rows = this.spec.rows ? [...this.tbody.rows].map((tr) => {
      const r = {};
      for (const input of tr.querySelectorAll('input, select')) r[input.dataset.key] = input.value;
      return r;
    }) : [];
    return { scalars, rows };
  }

  // ---- the URL ----------------------------------------------------------

  /** Writes this section's state into `params`. */
  toParams(params) {
    toParams(this, params);
  }

  /** This section's state from URL parameters over `defaults`, or null. */
  fromParams(params, defaults) {
    return fromParams(this, params, defaults);
  }

  // ---- validating and computing -------------------------------------------

  /** The field whose slot says the message of request path `field`: its
   * own, or the one field under it (a table's text: `computation` →
   * `computation.csv`). */
  slotPath(field) {
    if (this.root.querySelector(`[data-error-for="${CSS.escape(field)}"]`)) return field;
    const under = [...this.root.querySelectorAll('[data-error-for]')].map((e) => e.dataset.errorFor)
      .filter((f) => f.startsWith(`${field}.`));
    return under.length === 1 ? under[0] : field;
  }

  /** Marks every invalid field (none when not `live`: the worker checks
   * it); true when the request is valid. */
  validate(request, live = true) {
    for (const e of this.root.querySelectorAll('[data-error-for]')) e.textContent = '';
    for (const e of this.root.querySelectorAll('[aria-invalid]')) e.removeAttribute('aria-invalid');
    const list = live ? core.problems(request) : [];
    const unplaced = [];
    const slotOf = (f) => this.root.querySelector(`[data-error-for="${CSS.escape(f)}"]`);
    for (const { field, message } of list) {
      // An entry of a list typed in one field (levels[1]) goes to that field.
      const entry = /^(.*)\[(\d+)\]$/.exec(field);
      const listed = entry && !slotOf(field) && slotOf(entry[1]);
      const whole = listed ? entry[1] : this.slotPath(field);
      const text = listed ? `entry ${Number(entry[2]) + 1} ${message}` : message;
      const slot = slotOf(whole);
      if (slot) slot.textContent = slot.textContent ? `${slot.textContent}; ${text}` : text;
      else unplaced.push(field ? `${field}: ${message}` : message);
      this.root.querySelector(`[data-field="${CSS.escape(whole)}"]`)?.setAttribute('aria-invalid', 'true');
    }
    this.showError(unplaced.join('\n'));
    revealMessages(this);
    return list.length === 0;
  }

  showError(text) {
    this.error.textContent = text;
    this.error.hidden = !text;
  }

  /** The inputs changed (or Compute was pressed: `again`, which also
   * computes anew a result cut short by a cancel, and `focus`, which
   * focuses the first marked field when there is one). */
  changed({ now = false, again = false, focus = false } = {}) {
    this.ui.onChange();
    const request = this.request();
    this.followOpened(request);
    clearTimeout(this.debounce);
    const text = JSON.stringify(request);
    if (!this.validate(request, text.length <= LIVE_CHECK)) {
      this.ui.status(this.response
        ? 'Fix the marked fields; the result shown is for the previous input.' : 'Fix the marked fields.');
      this.markStale('Changed — the result below is for the previous inputs; fix the marked fields to recompute.');
      this.wasInvalid = true;
      // Compute pressed: the first marked field comes into view, focused.
      if (focus) this.root.querySelector('form [aria-invalid="true"]')?.focus();
      return;
    }
    const wasInvalid = this.wasInvalid;
    this.wasInvalid = false;
    // The same request as the result shown (e.g. only a view option
    // changed, or a bad value put back): redraw, do not recompute.
    const cut = again && this.partial;
    if (this.response && !this.stale && !cut && text === this.computed) {
      this.show(this.response);
      this.markStale(null);
      // A bad value put back: nothing is marked, and the status says so.
      if (wasInvalid) this.ui.status('The result shown is for these inputs.');
      return;
    }
    this.markStale('Changed — recomputing; the result below is for the previous inputs.');
    this.debounce = setTimeout(() => {
      // A hidden section computes when it is shown again, so that it never
      // cancels the work of the one on screen.
      if (this.ui.isActive(this)) this.compute(request);
      else this.stale = true;
    }, now ? 0 : 300);
  }

  async compute(request) {
    this.stale = false;
    this.partial = false;
    const started = performance.now();
    const token = {};
    this.latest = token;
    this.ui.status('Computing…', { busy: true });
    // A long search shows its best result so far as it goes (M5's branch
    // and bound); a cancel keeps the last one.
    let snapshot = null;
    const onSnapshot = (value) => {
      if (this.latest !== token) return;
      snapshot = value;
      this.show(value);
      this.markStale(null);
      this.showError('');
    };
    try {
      const response = await this.ui.computer.run(request, (done, what) => this.ui.progress(done, what), onSnapshot);
      this.response = response;
      this.computed = JSON.stringify(request);
      this.show(response);
      this.markStale(null);
      this.showError('');
      this.ui.status(`Computed in ${secs((performance.now() - started) / 1000)} s.`);
    } catch (err) {
      if (snapshot && err instanceof Cancelled && this.latest === token) {
        this.response = snapshot;
        this.computed = JSON.stringify(request);
        // Kept on screen, but Compute searches again.
        this.partial = true;
        this.ui.status('Cancelled; the best result found so far is shown. Compute searches again.');
        return;
      }
      this.failed(err, token,
        this.response ? 'Cancelled; the result shown is for the previous input.' : 'Cancelled.');
    }
  }

  /** Tells why computation `token` gave no result; `cancelled` is the
   * status for a cancel by the user. */
  failed(err, token, cancelled) {
    // The page's own instance crashed (joining or drawing an answer): the
    // page replaces it and says so.
    if (isCrash(err)) {
      this.markStale('Changed — the calculator on this page crashed; the result below is for the previous inputs.');
      this.ui.crashed(err);
      return;
    }
    // Superseded by a newer computation of this section: nothing to say.
    if (err instanceof Cancelled && this.latest !== token) return;
    if (err instanceof Cancelled) {
      this.stale = true;
      this.ui.status(cancelled);
      this.markStale('Changed — cancelled; the result below is for the previous inputs. Compute to try again.');
    } else if (err instanceof Crashed) {
      this.markStale('Changed — the computation crashed; the result below is for the previous inputs.');
      this.ui.status('The computation crashed; the calculator was restarted.');
      this.showError(`The computation crashed (${err.message}). The calculator was restarted; your inputs are kept.`);
    } else {
      this.ui.status(this.response ? 'Not computed; the result shown is for the previous input.' : 'Not computed.');
      this.markStale('Changed — not computed (see the message); the result below is for the previous inputs.');
      // A field the solver found wrong (e.g. a deadline no set meets) is
      // marked like a field the checks found wrong.
      const named = /^([\w.[\]]+): (.*)$/s.exec(err.message);
      const slot = named && this.root.querySelector(`[data-error-for="${CSS.escape(this.slotPath(named[1]))}"]`);
      if (slot) {
        slot.textContent = named[2];
        revealMessages(this);
        this.showError('');
      } else {
        this.showError(err.message);
      }
    }
  }

  // ---- the result ---------------------------------------------------------

  show(response) {
    showResult(this, response);
  }
}
