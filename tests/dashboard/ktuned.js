// A real ktuned for the dashboard test: its own database and data dir, a free port (--port 0,
// read back from the line it prints), stopped with SIGTERM.
'use strict';
const { spawn } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const readline = require('node:readline');

async function startKtuned({ extraArgs = [] } = {}) {
  const binary = process.env.KTUNED;
  if (!binary) throw new Error('KTUNED must name the ktuned binary (ctest sets it)');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ktune-dashboard-'));
  fs.mkdirSync(path.join(dir, 'data'));
  const child = spawn(binary, ['--port', '0', '--db', path.join(dir, 'ktune.db'), '--data-dir',
    path.join(dir, 'data'), '--log-level', 'warn', ...extraArgs], { stdio: ['ignore', 'pipe', 'pipe'] });
  let log = '';
  child.stderr.on('data', (chunk) => { log += chunk; });
  const url = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`ktuned did not start within 30 s: ${log}`)), 30000);
    child.on('exit', (code) => reject(new Error(`ktuned exited (${code}) at start: ${log}`)));
    readline.createInterface({ input: child.stdout }).on('line', (line) => {
      const match = /listening on (http:\/\/\S+)/.exec(line);
      if (match) { clearTimeout(timer); resolve(match[1]); }
    });
  });
  return {
    url,
    dir,
    log: () => log,
    async stop() {
      if (child.exitCode == null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      }
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

// A JSON request to the daemon; the answer's body, or an error naming its status and body.
async function api(daemon, method, route, body, { token, contentType = 'application/json' } = {}) {
  const headers = { 'Content-Type': contentType };
  if (token) headers.Authorization = `Bearer ${token}`;
  const payload = body == null || Buffer.isBuffer(body) ? body : JSON.stringify(body);
  const response = await fetch(daemon.url + route, { method, headers, body: payload });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${route}: ${response.status} ${text}`);
  return JSON.parse(text);
}

module.exports = { startKtuned, api };
