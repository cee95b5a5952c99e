// A tab's scalar inputs, built from the form's description in Rust: number,
// text, JSON and choice fields with their labels, units and message slots,
// sized for the values of the tab's presets.
import { core } from './core.js';
import { el, marked } from './dom.js';
import { LONG_TEXT, fields, fromRequest, hint, textHash } from './form.js';
import { csvField } from './measurements.js';

/** The most characters a number field shows at its usual width; a
 * longer preset value widens the field. */
const USUAL_CHARS = 8;

/** Widens a number field to `chars` characters when they exceed the usual. */
export function fit(input, chars) {
  if (chars > USUAL_CHARS) input.style.width = `calc(${chars + 1}ch + 0.8rem)`;
}

/** Each number field's width in characters: as wide as its longest
 * value in any preset of the tab (`1000000000000000` was cut). */
export function presetWidths(tab, form) {
  const widths = {};
  const note = (key, text) => { widths[key] = Math.max(widths[key] ?? 0, String(text ?? '').length); };
  for (const [name] of tab.presets) {
    let state;
    try { state = fromRequest(form, core.example(name)); } catch { continue; }
    for (const [k, v] of Object.entries(state.scalars)) if (typeof v === 'string') note(k, v);
    for (const row of state.rows) for (const [k, v] of Object.entries(row)) note(`row.${k}`, v);
  }
  return widths;
}

/** The long texts of the tab's presets (tables of measurements) by their
 * hashes: a link names them by hash, and every browser has them. */
export function presetTexts(tab, form) {
  const known = new Map();
  if (!fields(form).some((f) => f.kind === 'csv')) return known;
  for (const [name] of tab.presets) {
    let state;
    try { state = fromRequest(form, core.example(name)); } catch { continue; }
    for (const v of Object.values(state.scalars)) {
      if (typeof v === 'string' && v.length > LONG_TEXT) known.set(textHash(v), v);
    }
  }
  return known;
}

/** Field `f` of `section`: its label, input (and unit) and message slot. */
export function scalar(section, f) {
  const id = `${section.spec.id}-${f.key}`;
  const field = f.path;
  const error = el('span', { className: 'field-error', dataset: { errorFor: field }, role: 'alert' });
  if (f.kind === 'check' || f.kind === 'view') {
    const input = el('input', { type: 'checkbox', id, dataset: { field, key: f.key } });
    // Cleared when the user edits the field it belongs to (a table marked
    // as an example becomes theirs); caught first, so that the request
    // read on that same edit sees the box cleared.
    if (f.cleared_by) {
      section.root.addEventListener('input', (e) => {
        if (e.target !== input && e.target.dataset?.key === f.cleared_by) input.checked = false;
      }, true);
    }
    const label = el('label', { className: 'check', title: f.help }, input, ' ');
    label.insertAdjacentHTML('beforeend', f.label);
    return [label, error];
  }
  if (f.kind === 'csv') return csvField(section, f, id, error);
  if (f.kind === 'choice') {
    const select = el('select', { id, dataset: { field, key: f.key } },
      ...f.options.map((o) => el('option', { value: o }, o)));
    const label = marked(el('label', { htmlFor: id, title: hint(f) }), f.label);
    return [el('span', { className: 'field' }, label, select), error];
  }
  const wide = f.kind === 'json' || f.kind === 'text' || f.kind === 'list';
  const input = f.kind === 'json'
    ? el('textarea', { id, autocomplete: 'off', spellcheck: false, className: 'textarea', dataset: { field, key: f.key } })
    : el('input', {
      id, autocomplete: 'off', placeholder: f.placeholder ?? '', dataset: { field, key: f.key },
      ...(wide ? { className: 'text', spellcheck: false } : { inputMode: 'decimal' }),
    });
  // Values offered as the field is typed (every parameter of a map).
  const offered = f.suggestions?.length
    ? el('datalist', { id: `${id}-offered` }, ...f.suggestions.map(([value, what]) => el('option', { value, label: what })))
    : null;
  if (offered) input.setAttribute('list', offered.id);
  // A placeholder (what an empty optional field means) is shown whole too.
  if (!wide) fit(input, Math.max(section.widths[f.key] ?? 0, Math.min(16, (f.placeholder ?? '').length)));

  const label = marked(el('label', { htmlFor: id, title: hint(f) }), f.label);
  const kind = f.kind === 'json' ? 'field textarea' : wide ? 'field text' : 'field';
  const unit = f.unit ? [el('span', { className: 'unit' }, f.unit)] : [];
  const take = f.from_tabs?.length ? [taking(section, f, input)] : [];
  return [...take, el('span', { className: kind }, label, input, ...unit, offered), error];
}

/** A JSON field's value taken from another tab's inputs (only when
 * that tab finds them valid), or that tab opened to edit them. */
function taking(section, f, input) {
  const id = `${section.spec.id}-${f.key}`;
  const tabs = core.tabs().filter((t) => f.from_tabs.includes(t.model));
  const select = el('select', { id: `${id}-tab`, 'aria-label': 'the tab whose inputs to take' },
    ...tabs.map((t) => marked(el('option', { value: t.model }), t.form.tab)));
  // Choosing a tab changes no input of this one.
  select.addEventListener('input', (e) => e.stopPropagation());
  select.addEventListener('change', (e) => e.stopPropagation());
  const take = el('button', { type: 'button', id: `${id}-take` }, 'Take the inputs of');
  take.addEventListener('click', () => {
    const request = section.ui.requestOf?.(select.value);
    if (!request) return;
    const name = select.selectedOptions[0]?.textContent ?? select.value;
    if (core.problems(request).length > 0) {
      // Said next to the field (the status line belongs to computations).
      const slot = section.root.querySelector(`[data-error-for="${CSS.escape(f.path)}"]`);
      if (slot) slot.textContent = `the ${name} tab has invalid inputs: fix them there first (Edit them in their tab)`;
      return;
    }
    input.value = JSON.stringify(request);
    section.changed({ now: true });
    section.commit();
  });
  // The field's value when it is a request of one of those tabs.
  const base = () => {
    try { const b = JSON.parse(input.value); return tabs.some((t) => t.model === b?.model) ? b : null; } catch { return null; }
  };
  // The tab the base is for, when it is typed or set from a preset or a link.
  const sync = () => { const b = base(); if (b) select.value = b.model; };
  const edit = el('button', { type: 'button', id: `${id}-edit` }, 'Edit them in their tab');
  edit.addEventListener('click', () => {
    sync();
    section.ui.open(base() ?? { model: select.value, ...section.ui.requestOf?.(select.value) });
  });
  input.addEventListener('change', sync);
  (section.syncs ??= []).push(sync);
  return el('span', { className: 'field take' }, take, select, edit);
}
