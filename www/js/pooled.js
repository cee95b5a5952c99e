// A tab whose request splits into parts (one machine count each, say): the
// parts run on the pool of workers and the answer is joined in Rust as they
// come, so lines appear while the rest is computed. Nothing here knows a
// model: the split, the join and the wording come from the core.
import { split, join } from '../pkg/dlt_calc.js';
import { Section, fmt } from './section.js';

/** Milliseconds between two redraws of provisional answers. */
const REDRAW_EVERY = 250;

export class PooledSection extends Section {
  async compute(request) {
    const parts = split(request);
    if (parts.length === 0) return super.compute(request);
    this.stale = false;
    const started = performance.now();
    const latest = new Array(parts.length).fill(null);
    const done = new Array(parts.length).fill(false);
    const token = {};
    this.latest = token;
    this.ui.status('Computing…', { busy: true });
    let shown = 0;
    const redraw = (force) => {
      const now = performance.now();
      if (!force && now - shown < REDRAW_EVERY) return;
      shown = now;
      this.show(join(request, latest.filter(Boolean)));
      this.markStale(null);
    };
    try {
      await this.ui.pool.runAll(parts, (i, response) => {
        if (this.latest !== token) return;
        latest[i] = response;
        done[i] = true;
        redraw(true);
      }, (fraction) => {
        const elapsed = (performance.now() - started) / 1000;
        const left = fraction > 0.02 ? ` about ${fmt(Math.round(elapsed * (1 - fraction) / fraction))} s left,` : '';
        const finished = done.filter(Boolean).length;
        this.ui.progress(fraction, `${finished} of ${parts.length} ${this.spec.parts} done,${left} ${this.ui.pool.size} workers`);
      }, (i, value) => {
        // A part's provisional answer (a column with its first lines).
        if (this.latest !== token || done[i]) return;
        latest[i] = value;
        redraw(false);
      });
      this.response = join(request, latest);
      this.computed = JSON.stringify(request);
      this.show(this.response);
      this.markStale(null);
      this.showError('');
      this.ui.status(`Computed in ${fmt((performance.now() - started) / 1000)} s on ${this.ui.pool.size} workers.`);
    } catch (err) {
      this.failed(err, token, 'Cancelled; what was computed so far is shown.');
    }
  }
}
