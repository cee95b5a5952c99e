// Serves a folder on 127.0.0.1 for the browser scripts (the end-to-end test
// and the map benchmark) and waits until `url` answers.
import { spawn } from 'node:child_process';
import net from 'node:net';

/** Resolves when nothing listens on `port`, rejects otherwise. */
function ensurePortFree(port, variable) {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', () => reject(new Error(`port ${port} is in use (set ${variable} to another port)`)));
    probe.listen(port, '127.0.0.1', () => probe.close(resolve));
  });
}

/** Starts `python3 -m http.server` on `port` for `root`; resolves with the
 * server process once `url` answers. `variable` names the environment
 * variable that chooses the port, for the message when it is taken. */
export async function serve(root, port, url, variable) {
  // Another server on the port might serve other files: refuse to start.
  await ensurePortFree(port, variable);
  const server = spawn('python3', ['-m', 'http.server', String(port), '--bind', '127.0.0.1', '--directory', root],
    { stdio: 'ignore' });
  for (let i = 0; i < 100; i++) {
    try {
      if ((await fetch(url)).ok) return server;
    } catch { /* not up yet */ }
    await new Promise((r) => setTimeout(r, 100));
  }
  server.kill();
  throw new Error(`the server did not start on port ${port}`);
}
