// A tab whose request splits into parts (one machine count each, say): the
// parts run on the pool of workers and the answer is joined in Rust as they
// come, so lines appear while the rest is computed. Nothing here knows a
// model: the split, the join and the wording come from the core.
import { core } from './core.js';
import { Section } from './section.js';
import { el, secs } from './dom.js';
import { keep, recall } from './cache.js';

/** Milliseconds between two redraws of provisional answers. */
const REDRAW_EVERY = 250;

/** The time left from the recent pace, not the average since the start:
 * parts differ in cost (a map's large machine counts take longest), so the
 * first quick parts would promise far too little. The pace is measured
 * over the last half of the time spent, at most `span` seconds. An
 * estimate is said only once it is stable: the finishing times it
 * predicted over the last `settle` seconds agree within a quarter of the
 * time left (a map's first estimates swung from 740 s to 1 s). Near the
 * end (99 % done, or under 2 s left) it says `'finishing'`, never "about
 * 1 s left" while a last slow part goes on. Says nothing (null) until then,
 * in the first 2 s, below 5 % done, or while the pace is not positive. */
export class TimeLeft {
  constructor(span = 6, settle = 2) {
    this.span = span;
    this.settle = settle;
    this.samples = [];
    /** [now, predicted end] of the recent estimates (null: none then). */
    this.ends = [];
  }

  /** The pace's raw estimate of the seconds left, or null. */
  raw(now, fraction) {
    const s = this.samples;
    s.push([now, fraction]);
    while (s.length > 1 && s[1][0] <= now - this.span) s.shift();
    const since = now - Math.min(this.span, now / 2);
    const base = s.findLast(([t]) => t <= since);
    if (!base || now < 2 || fraction < 0.05 || now - base[0] < 0.5) return null;
    const pace = (fraction - base[1]) / (now - base[0]);
    return pace > 0 ? (1 - fraction) / pace : null;
  }

  /** Seconds left (rounded) at `now` seconds with `fraction` done,
   * `'finishing'`, or null. */
  at(now, fraction) {
    const left = this.raw(now, fraction);
    if (fraction >= 0.99) return 'finishing';
    const e = this.ends;
    e.push([now, left === null ? null : now + left]);
    while (e.length > 1 && e[1][0] <= now - this.settle) e.shift();
    if (left === null || now - e[0][0] < this.settle * 0.75 || e.some(([, end]) => end === null)) return null;
    const ends = e.map(([, end]) => end);
    const spread = Math.max(...ends) - Math.min(...ends);
    if (spread > 0.25 * left + 0.5) return null;
    if (left < 2) return 'finishing';
    return left < 10 ? Math.round(left) : 5 * Math.round(left / 5);
  }
}

/** What the status line says of the time left (see `TimeLeft.at`). */
export function timeLeftText(left) {
  if (left === null) return '';
  return left === 'finishing' ? ' finishing…,' : ` about ${secs(left)} s left,`;
}

export class PooledSection extends Section {
  /** Computes `request`, or shows the answer this browser kept for it
   * (unless `fresh`). */
  async compute(request, { fresh = false } = {}) {
    const parts = core.split(request);
    if (parts.length === 0) return super.compute(request);
    if (!fresh && await this.recalled(request)) return;
    this.stale = false;
    const started = performance.now();
    const latest = new Array(parts.length).fill(null);
    const done = new Array(parts.length).fill(false);
    const token = {};
    this.latest = token;
    const eta = new TimeLeft();
    this.ui.status('Computing…', { busy: true });
    let shown = 0;
    const redraw = (force) => {
      const now = performance.now();
      if (!force && now - shown < REDRAW_EVERY) return;
      shown = now;
      this.show(core.join(request, latest.filter(Boolean)));
      this.markStale(null);
    };
    try {
      await this.ui.pool.runAll(parts, (i, response) => {
        if (this.latest !== token) return;
        latest[i] = response;
        done[i] = true;
        redraw(true);
      }, (fraction) => {
        const left = eta.at((performance.now() - started) / 1000, fraction);
        const text = timeLeftText(left);
        const finished = done.filter(Boolean).length;
        this.ui.progress(fraction, `${finished} of ${parts.length} ${this.spec.parts} done,${text} ${this.ui.pool.size} workers`);
      }, (i, value) => {
        // A part's provisional answer (a column with its first lines).
        if (this.latest !== token || done[i]) return;
        latest[i] = value;
        redraw(false);
      });
      this.response = core.join(request, latest);
      this.computed = JSON.stringify(request);
      this.show(this.response);
      this.markStale(null);
      this.showError('');
      const seconds = (performance.now() - started) / 1000;
      this.ui.status(`Computed in ${secs(seconds)} s on ${this.ui.pool.size} workers.`);
      keep(request, this.response, seconds);
    } catch (err) {
      this.failed(err, token, 'Cancelled; what was computed so far is shown.');
    }
  }

  /** Shows the kept answer to `request`, if any, with when it was computed
   * and a button to compute it again. */
  async recalled(request) {
    const token = {};
    this.latest = token;
    const kept = await recall(request);
    if (!kept || this.latest !== token) return false;
    this.stale = false;
    this.response = kept.response;
    this.computed = JSON.stringify(request);
    this.show(kept.response);
    this.markStale(null);
    this.showError('');
    const when = kept.at.replace('T', ' ').slice(0, 16);
    const again = el('button', { type: 'button', id: `${this.spec.id}-recompute` }, 'Compute again');
    again.addEventListener('click', () => this.compute(request, { fresh: true }));
    this.result.prepend(el('p', { className: 'note', id: `${this.spec.id}-kept` },
      `Kept in this browser: computed ${when} UTC in ${secs(kept.seconds)} s. `, again));
    this.ui.status(`Shown at once: this browser kept the answer (computed ${when} UTC).`);
    return true;
  }
}
