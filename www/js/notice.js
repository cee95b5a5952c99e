// A classic script (browsers run those from files, not modules): opened from
// a file, the page says why it cannot run instead of "Loading…" forever.
if (location.protocol === 'file:' && !globalThis.dltBundle) {
  addEventListener('DOMContentLoaded', () => {
    document.getElementById('progress').hidden = true;
    document.getElementById('status-text').textContent = 'This page was opened from a file, and browsers do '
      + 'not run its modules from files. Serve the folder (make serve, or any static web server) and open '
      + 'it over http (e.g. http://127.0.0.1:8000/), or use the single file dlt-calc.html (make dist).';
  });
}
