// The page: one tab per model of the core's registry (forms built from the
// models' descriptions), one shared worker and a pool, one status bar, and
// every tab's inputs in the URL.
import { core, isCrash, replace, start } from './core.js';
import { Computer, Pool } from './compute.js';
import { Section } from './section.js';
import { PooledSection } from './pooled.js';
import { ExerciseSection } from './exercises.js';
import { StarSection } from './star.js';
import { printCharts } from './result.js';

const $ = (sel) => document.querySelector(sel);

let sections = [];
/** The tab the page opens with (the registry's choice). */
let DEFAULT_TAB = '';
let active = null;
let progressTimer = 0;
/** The control that started the running computation (a Compute button, a
 * field): focus goes back to it after a cancel. */
let starter = null;
/** Whether work is still going on (set once the workers exist). */
let working = () => false;

function status(text, { busy = false, note = false } = {}) {
  // Work that ended (finished, or cut short by a newer computation) while
  // other work goes on (a map on the pool, the run that cut it short)
  // leaves the status line, its progress and its cancel to that work; a
  // `note` (not about a computation) is still said.
  if (!busy && working()) {
    if (note) $('#status-text').textContent = text;
    return;
  }
  $('#status-text').textContent = text;
  clearTimeout(progressTimer);
  if (busy) {
    const focused = document.activeElement;
    starter = focused && focused !== document.body && !focused.closest('#status') ? focused : null;
    // A new run's bar starts empty, not at the last run's value.
    $('#progress').value = 0;
    // Show progress and cancel only for work that takes a while.
    progressTimer = setTimeout(() => {
      $('#progress').hidden = false;
      $('#cancel').hidden = false;
    }, 150);
  } else {
    $('#progress').hidden = true;
    $('#cancel').hidden = true;
  }
}

function progress(done, what) {
  $('#progress').value = done;
  // Rounded down: "100 %" only once it is done.
  $('#status-text').textContent = `Computing: ${what} (${Math.floor(done * 100)} %)`;
}

/** The longest link read, in characters, and the most machine rows it may
 * hold: far above any real instance, low enough that a pasted link cannot
 * freeze the tab. */
const MAX_LINK = 100_000;
const MAX_LINK_ROWS = 2_000;

/** `params` with an older link's names read as today's: a tab's former id
 * (`m4`) becomes its model's id, and a key with a tab's former prefix
 * (`mi.beta`, or a bare `beta` where the prefix was empty) takes the
 * model's (`installments.beta`). Today's keys are kept as they are. */
export function upgradeLink(params, tabs) {
  const ids = new Set(tabs.map((t) => t.model));
  const tab = params.get('tab');
  const renamed = new URLSearchParams();
  for (const [key, value] of params) {
    if (key === 'tab') {
      const former = tabs.find((t) => t.former.tab === tab && !ids.has(tab));
      renamed.append(key, former ? former.model : value);
      continue;
    }
    const dot = key.indexOf('.');
    if (dot > 0 && ids.has(key.slice(0, dot))) { renamed.append(key, value); continue; }
    const former = tabs.find((t) => t.former.prefix !== '' && key.startsWith(t.former.prefix))
      ?? (dot < 0 ? tabs.find((t) => t.former.tab !== '' && t.former.prefix === '') : undefined);
    const today = former ? `${former.model}.${key.slice(former.former.prefix.length)}` : key;
    // A link that has a key in both forms keeps today's.
    if (today === key || !params.has(today)) renamed.append(today, value);
  }
  return renamed;
}

/** The link's parameters, or none (the defaults) with the reason when the
 * link is too long or has too many rows; checked before anything is built. */
function linkParams(search) {
  const none = new URLSearchParams();
  if (search.length > MAX_LINK) {
    return { params: none, refused: `This link is ${search.length} characters long (the limit is ${MAX_LINK}); the defaults are shown instead.` };
  }
  // The tabs are built by now: their descriptions are not asked for again.
  const params = upgradeLink(new URLSearchParams(search), sections.map((s) => s.tab));
  let rows = 0;
  for (const key of params.keys()) if (key === 'p' || key.endsWith('.p')) rows++;
  if (rows > MAX_LINK_ROWS) {
    return { params: none, refused: `This link has ${rows} machine rows (the limit is ${MAX_LINK_ROWS}); the defaults are shown instead.` };
  }
  return { params, refused: null };
}

function query() {
  const params = new URLSearchParams();
  params.set('tab', active.spec.id);
  for (const s of sections) s.toParams(params);
  return `?${params.toString().replaceAll('%2C', ',')}`;
}

/** The link's query as last written or restored: Back and Forward only
 * restore inputs when it changes (a citation's anchor changes the hash). */
let lastSearch = '';
/** The query of the history entry as it was last committed (a tab shown,
 * an input set computed); typing rewrites the entry's link meanwhile, so
 * that a reload keeps what was typed. */
let committed = '';

/** The link follows the inputs as they are typed (no history entry). */
function saveUrl() {
  const q = query();
  lastSearch = q;
  history.replaceState(null, '', q + location.hash);
}

/** A new history entry for the inputs and tab as they stand (a tab switch,
 * a computed input set), so that Back returns to the previous ones: the
 * entry typed over gets its committed link back first. */
function commit() {
  const q = query();
  lastSearch = q;
  if (q === committed) { history.replaceState(null, '', q + location.hash); return; }
  if (committed) {
    history.replaceState(null, '', committed + location.hash);
    history.pushState(null, '', q);
  } else {
    history.replaceState(null, '', q + location.hash);
  }
  committed = q;
}

/** Copies `own` (a tab's own link: an exercise sheet's carries the sheet
 * alone), or the link of every tab's inputs. */
async function copyLink(own) {
  const url = own ?? new URL(query(), location.href).href;
  try {
    await navigator.clipboard.writeText(url);
    status('Link copied.', { note: true });
  } catch {
    prompt('Copy this link:', url);
  }
}

/** Shows tab `id`; `entry` makes it a history entry of its own (a tab
 * chosen, not one restored by Back). */
function show(id, { entry = false } = {}) {
  active = sections.find((s) => s.spec.id === id) ?? sections.find((s) => s.spec.id === DEFAULT_TAB);
  for (const s of sections) {
    const on = s === active;
    s.root.hidden = !on;
    const tab = $(`#tab-${s.spec.id}`);
    tab.setAttribute('aria-selected', String(on));
    tab.tabIndex = on ? 0 : -1;
    // On a phone the tabs scroll sideways: the chosen one is brought in
    // (the strip alone scrolls, not the page).
    const strip = tab.parentElement;
    if (on && strip.scrollWidth > strip.clientWidth) strip.scrollLeft = Math.max(0, tab.offsetLeft - 40);
  }
  if (entry) commit(); else saveUrl();
  // A tab computes when first shown, when its inputs changed while it was
  // hidden, and when its last computation was cut short (a cancel, or
  // another tab's computation on the same worker), best-so-far kept or not.
  if (!active.response || active.stale || active.partial) active.changed({ now: true, again: true });
}

/** The most times the page's own instance is replaced in a minute; past
 * that something is wrong with every instance, and the page says so. */
const MAX_REPLACED = 3;
let replaced = [];
let replacing = null;

/** The page's own instance crashed (`err`): a fresh one replaces it, the
 * user is told, the inputs stay and the tab on screen is computed again. */
function crashed(err) {
  if (replacing) return;
  const now = Date.now();
  replaced = replaced.filter((t) => now - t < 60_000);
  const what = err?.message ?? String(err);
  if (replaced.length >= MAX_REPLACED) {
    status(`The calculator on this page keeps crashing (${what}); reload the page. Your inputs are in its link.`);
    return;
  }
  replaced.push(now);
  status(`The calculator on this page crashed (${what}) and is being restarted; your inputs are kept.`);
  replacing = replace().then(() => {
    replacing = null;
    // Kept on screen: the status line moves on when the tab computes.
    const note = $('#crash-note') ?? $('#status').insertAdjacentElement('afterend',
      Object.assign(document.createElement('p'), { id: 'crash-note', className: 'error', role: 'alert' }));
    note.textContent = `The calculator on this page crashed (${what}) and was restarted; your inputs are kept.`;
    status('The calculator on this page crashed and was restarted; your inputs are kept.');
    if (active) { active.stale = true; active.changed({ now: true }); }
  }, (e) => {
    replacing = null;
    status(`The calculator on this page crashed and could not be restarted (${e?.message ?? e}); reload the page.`);
  });
}

// A crash anywhere on the page (an input's check, a drawing) is caught here.
window.addEventListener('error', (e) => { if (isCrash(e.error)) { e.preventDefault(); crashed(e.error); } });
window.addEventListener('unhandledrejection', (e) => { if (isCrash(e.reason)) { e.preventDefault(); crashed(e.reason); } });

/** Opens `request` (an exercise's, a generalised map's fixed parameters,
 * a model filled from measurements) in its model's tab and computes it;
 * `opened` ({changes, note, back, from}) is what the tab then says about
 * where its inputs came from. */
function open(request, opened = null) {
  const section = sections.find((s) => s.tab.model === request.model);
  if (!section) return;
  section.fill(section.stateOf(request));
  section.showOpened(opened);
  section.stale = true;
  show(section.spec.id, { entry: true });
  window.scrollTo({ top: 0 });
}

/** The works the tabs cite, at the foot of the page (each tab links its
 * citations here). */
function showBibliography(works) {
  const section = document.createElement('section');
  section.id = 'bibliography';
  section.setAttribute('aria-labelledby', 'bibliography-title');
  const title = Object.assign(document.createElement('h2'), { id: 'bibliography-title', textContent: 'Bibliography' });
  const list = document.createElement('ol');
  for (const w of works) {
    const item = Object.assign(document.createElement('li'), { id: `bib-${w.key}` });
    item.append(`${w.authors}, `, Object.assign(document.createElement('cite'), { textContent: w.title }), `, ${w.venue}.`);
    list.append(item);
  }
  section.append(title, list);
  $('footer').before(section);
}

/** The large-text toggle (for a projector), remembered by the browser;
 * charts are redrawn with it. */
function largeText() {
  const button = $('#large-text');
  const key = 'dlt-calc:large-text';
  const set = (on) => {
    document.documentElement.classList.toggle('large-text', on);
    button.setAttribute('aria-pressed', String(on));
  };
  try { set(localStorage.getItem(key) === '1'); } catch { /* not kept here */ }
  button.addEventListener('click', () => {
    const on = button.getAttribute('aria-pressed') !== 'true';
    set(on);
    try { localStorage.setItem(key, on ? '1' : '0'); } catch { /* not kept here */ }
    for (const s of sections) if (s.response && !s.root.hidden) s.show(s.response);
  });
}

/** Charts printed for paper: the tab on screen redraws its charts for a
 * printed page before the browser lays it out, and for the screen after. */
function printing() {
  const redraw = (on) => {
    printCharts(on);
    for (const s of sections) if (s.response && !s.root.hidden && s.result.querySelector('canvas')) s.show(s.response);
  };
  window.addEventListener('beforeprint', () => redraw(true));
  window.addEventListener('afterprint', () => redraw(false));
}

/** The download of the calculator (the wasm): `received` of `total`
 * bytes, the bar without a value while the total is not known. */
function loading(received, total) {
  const bar = $('#progress');
  bar.hidden = false;
  const mb = (n) => (n / 1e6).toFixed(1);
  if (total > 0 && received <= total) {
    bar.value = received / total;
    $('#status-text').textContent = `Loading the calculator: ${mb(received)} of ${mb(total)} MB`;
  } else {
    bar.removeAttribute('value');
    $('#status-text').textContent = received > 0 ? `Loading the calculator: ${mb(received)} MB` : 'Loading the calculator…';
  }
}

async function main() {
  largeText();
  printing();
  try {
    await start(loading);
  } catch (err) {
    status(`The calculator could not be loaded: ${err}`);
    return;
  }
  // Compiled; the workers load their copies before anything computes.
  $('#status-text').textContent = 'Starting the calculator…';
  $('#progress').removeAttribute('value');
  $('#version').textContent = core.version();
  const computer = new Computer();
  const pool = new Pool();
  working = () => computer.busy || pool.busy;
  const works = core.bibliography();
  const requestOf = (model) => sections.find((s) => s.tab.model === model)?.request();
  const showTab = (id) => { show(id, { entry: true }); window.scrollTo({ top: 0 }); };
  const ui = { computer, pool, status, progress, copyLink, works, onChange: saveUrl, onCommit: commit, isActive: (s) => s === active, open, crashed, requestOf, showTab };
  const kinds = { report: Section, exercises: ExerciseSection };
  const models = core.tabs();
  DEFAULT_TAB = (models.find((t) => t.opens) ?? models[0]).model;
  sections = models.map((tab) => new (kinds[tab.form.layout] ?? PooledSection)(tab, ui));
  // The experiment on this computer: a tab of the page, not a model.
  sections.push(new StarSection(ui));
  // The WAI-ARIA tabs pattern: the tabs are the tablist's own children,
  // one of them in the Tab order at a time (see `show`).
  const list = $('[role="tablist"]');
  for (const s of sections) {
    const tab = document.createElement('button');
    Object.assign(tab, { type: 'button', id: `tab-${s.spec.id}`, tabIndex: -1 });
    tab.setAttribute('role', 'tab');
    tab.setAttribute('aria-selected', 'false');
    tab.setAttribute('aria-controls', s.spec.id);
    tab.dataset.tab = s.spec.id;
    // The number the docs give the model (M1 … M9); maps and exercises have none.
    tab.innerHTML = s.tab.number ? `<span class="model-number">M${s.tab.number}</span> ${s.spec.tab}` : s.spec.tab;
    list.append(tab);
    $('main').append(s.root);
  }
  showBibliography(works);
  const { params, refused } = linkParams(location.search);
  const restore = (from) => {
    for (const s of sections) {
      if (s.own) { s.fromParams(from); continue; }
      const defaults = s.stateOf(core.example(s.tab.presets[0][0]));
      s.fill(s.fromParams(from, defaults) ?? defaults);
    }
  };
  restore(params);
  // Back and Forward (past a citation's anchor, say) move between links of
  // this page without reloading it: the inputs follow the link, so that the
  // page never shows one instance under the link of another.
  window.addEventListener('popstate', () => {
    if (location.search === lastSearch) return;
    lastSearch = location.search;
    committed = location.search;
    const back = linkParams(location.search).params;
    const before = sections.map((s) => JSON.stringify(s.request()));
    restore(back);
    sections.forEach((s, i) => { if (JSON.stringify(s.request()) !== before[i]) s.stale = true; });
    show(back.get('tab') ?? DEFAULT_TAB);
  });
  const tabs = [...document.querySelectorAll('[role="tab"]')];
  tabs.forEach((tab, i) => {
    tab.addEventListener('click', () => { if (tab.dataset.tab !== active?.spec.id) show(tab.dataset.tab, { entry: true }); });
    // Arrows move to the next or previous tab (around the ends), Home and
    // End to the first and last; the tab reached is shown at once.
    tab.addEventListener('keydown', (e) => {
      const to = { ArrowRight: i + 1, ArrowLeft: i - 1, Home: 0, End: tabs.length - 1 }[e.key];
      if (to === undefined || e.altKey || e.ctrlKey || e.metaKey) return;
      e.preventDefault();
      const next = tabs[(to + tabs.length) % tabs.length];
      next.focus();
      if (next.dataset.tab !== active?.spec.id) show(next.dataset.tab, { entry: true });
    });
  });
  const cancel = () => {
    const back = starter?.isConnected && !starter.closest('[hidden]') ? starter : $(`#${active.spec.id}-compute`);
    computer.cancel();
    pool.cancel();
    // The cancel button hides: focus goes back to what started the work.
    back?.focus();
  };
  $('#cancel').addEventListener('click', cancel);
  // Escape cancels a running computation (a dialog's Escape is its own).
  document.addEventListener('keydown', (e) => {
    if (e.key === 'Escape' && !e.defaultPrevented && working()) { e.preventDefault(); cancel(); }
  });
  $('#jump-result').addEventListener('click', () => {
    const target = active.result.hidden ? active.root : active.result;
    target.scrollIntoView({ block: 'start' });
  });
  active = sections.find((s) => s.spec.id === (params.get('tab') ?? DEFAULT_TAB))
    ?? sections.find((s) => s.spec.id === DEFAULT_TAB);
  try {
    await computer.ready;
  } catch (err) {
    status(err.message);
    return;
  }
  if (refused) {
    // Kept on screen: the status line moves on as soon as a tab computes.
    $('#status').after(Object.assign(document.createElement('p'),
      { id: 'link-error', className: 'error', role: 'alert', textContent: refused }));
  }
  if (computer.inline) {
    $('#status').after(Object.assign(document.createElement('p'), {
      id: 'inline-note', className: 'note', role: 'note',
      textContent: 'This browser does not start background workers here, so the calculator computes on the page '
        + 'itself: a long computation freezes the page until it is done, with no progress bar and no cancel. '
        + 'Serve the folder over http (or use another browser) to compute in the background.',
    }));
  }
  // Shown only now that they work: the jump needs a tab on screen, the
  // footer the calculator's version.
  $('#jump-result').hidden = false;
  $('footer').hidden = false;
  status('Ready.');
  pool.warm();
  show(active.spec.id);
  committed = lastSearch;
}

main();

// After one visit the page works offline (served from the browser's cache
// when the network does not answer). Not on file://, where it cannot.
if ('serviceWorker' in navigator && location.protocol !== 'file:') {
  navigator.serviceWorker.register('sw.js').catch(() => { /* online only, as before */ });
}
