// The M3 form's state, kept as the strings the user typed so that even an
// invalid entry survives a reload, and its round trip through the URL:
// ?V=2&p=S,C,Al1,Al2,Ah1,Ah2,cap&p=...&best=1

const KEYS = ['startup', 'rate', 'l1', 'l2', 'h1', 'h2', 'cap'];

/** The state in the page's URL, or null when the URL holds none. */
export function readUrl(search = location.search) {
  const params = new URLSearchParams(search);
  if (!params.has('V') && !params.has('p')) return null;
  const processors = params.getAll('p').map((p) => {
    const parts = p.split(',');
    return Object.fromEntries(KEYS.map((k, i) => [k, (parts[i] ?? '').trim()]));
  });
  return { load: params.get('V') ?? '', processors, best: params.get('best') === '1' };
}

/** The query string for a state. */
export function toQuery(state) {
  const params = new URLSearchParams();
  params.set('V', state.load);
  for (const p of state.processors) params.append('p', KEYS.map((k) => p[k]).join(','));
  if (state.best) params.set('best', '1');
  return `?${params.toString().replaceAll('%2C', ',')}`;
}

/** Stores a state in the URL without adding a history entry. */
export function writeUrl(state) {
  history.replaceState(null, '', toQuery(state));
}

/** Form state from a request object (two memory levels). */
export function stateFromRequest(request) {
  return {
    load: String(request.load),
    best: Boolean(request.best_order),
    processors: request.processors.map((p) => {
      const [core, disk] = p.levels;
      return {
        startup: String(p.startup), rate: String(p.rate),
        l1: String(core.intercept), l2: String(core.slope),
        h1: disk ? String(disk.intercept) : '', h2: disk ? String(disk.slope) : '',
        cap: p.cap == null ? '' : String(p.cap),
      };
    }),
  };
}

/** A number as typed: empty or unreadable text becomes NaN, which the
 * calculator reports as "must be a finite number" for that field. */
function num(text) {
  const t = String(text).trim();
  return t === '' ? NaN : Number(t);
}

/** The request for a state. An out-of-core level left entirely empty means
 * the processor has only one memory level. */
export function requestFromState(state) {
  return {
    model: 'hierarchical',
    load: num(state.load),
    best_order: state.best,
    processors: state.processors.map((p) => {
      const levels = [{ intercept: num(p.l1), slope: num(p.l2) }];
      if (p.h1.trim() !== '' || p.h2.trim() !== '') levels.push({ intercept: num(p.h1), slope: num(p.h2) });
      return { startup: num(p.startup), rate: num(p.rate), levels, cap: p.cap.trim() === '' ? null : num(p.cap) };
    }),
  };
}
