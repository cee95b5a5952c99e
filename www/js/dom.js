// Small helpers every tab uses to make elements, write numbers and hand
// files to the user. Nothing here knows a model.
import { core } from './core.js';

export const $ = (sel, root = document) => root.querySelector(sel);

/** A number for display: up to 10 significant digits, no trailing noise. */
export function fmt(x) {
  if (typeof x !== 'number' || !Number.isFinite(x)) return String(x);
  const r = Number(x.toPrecision(10));
  return Math.abs(r) < 1e-300 ? '0' : String(r);
}

/** A duration measured by the page (seconds), to three significant digits:
 * a clock difference is not worth ten (`0.006199999999`). */
export function secs(x) {
  return fmt(Number(x.toPrecision(3)));
}

export function el(tag, props = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(props)) {
    if (k === 'dataset') Object.assign(e.dataset, v);
    else if (k in e) e[k] = v;
    else e.setAttribute(k, v);
  }
  e.append(...children.filter((c) => c != null));
  return e;
}

/** Puts `html` (markup written in Rust: <i>, <sub>, <sup>) in `e`. */
export function marked(e, html) {
  e.innerHTML = html;
  return e;
}

/** `e` showing `text` for reading (its numbers to four significant digits,
 * written by the core), with the full text on hover; exports keep it. */
export function readable(e, text) {
  const full = String(text ?? '');
  const short = core.readable(full);
  e.textContent = short;
  if (short !== full) e.title = full;
  return e;
}

export function download(name, blob) {
  const a = el('a', { href: URL.createObjectURL(blob), download: name });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 1000);
}

/** Two overlapping squares, drawn: the "⧉" character is a missing-glyph
 * box with some systems' fonts. */
export function copyIcon() {
  const ns = 'http://www.w3.org/2000/svg';
  const svg = document.createElementNS(ns, 'svg');
  for (const [k, v] of Object.entries({ viewBox: '0 0 16 16', width: '1em', height: '1em', 'aria-hidden': 'true', class: 'icon' })) {
    svg.setAttribute(k, v);
  }
  for (const [x, y] of [[1.5, 1.5], [5.5, 5.5]]) {
    const r = document.createElementNS(ns, 'rect');
    for (const [k, v] of Object.entries({ x, y, width: 9, height: 9, rx: 1.5, fill: x > 2 ? '#fff' : 'none', stroke: 'currentColor', 'stroke-width': 1.5 })) {
      r.setAttribute(k, String(v));
    }
    svg.append(r);
  }
  return svg;
}
