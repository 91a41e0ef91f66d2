// Listening beyond loopback (issue "Reliability and security", 9): `gateway serve --host 0.0.0.0`
// serves HTTPS only, with a self-signed certificate made once and kept in the data directory (its
// SHA-256 fingerprint printed at start), or with a configured certificate; loopback stays HTTP.
import assert from 'node:assert/strict';
import { X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { get as httpGet } from 'node:http';
import { get as httpsGet } from 'node:https';
import { join } from 'node:path';
import { test } from 'node:test';
import { tlsFor } from '../../main/infra/tls.js';
import { spawn } from 'node:child_process';
import { GATEWAY_BIN, tempDataDir } from '../helpers/gateway-process.js';
import { engineIndependent } from '../helpers/sql.js';

const TLS = engineIndependent('TLS of gateway serve');

interface Started {
  url: string;
  stdout: string;
  stop: () => Promise<void>;
}

/** Starts `gateway serve` and waits for its "listening on" line (http or https). */
async function serve(dataDir: string, args: string[]): Promise<Started> {
  const child = spawn(
    process.execPath,
    [GATEWAY_BIN, 'serve', '--data-dir', dataDir, '--port', '0', '--backup-interval-hours', '0', ...args],
    {
      env: { ...process.env, GATEWAY_LOG_LEVEL: 'warn' },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let stdout = '';
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no start: ${stderr}`)), 30_000);
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const match = /listening on (\S+)/.exec(stdout);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    });
  });
  return {
    url,
    stdout,
    stop: () =>
      new Promise((resolve) => {
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

/** GET over HTTPS, trusting nothing but reporting the server certificate's fingerprint. */
function httpsHealth(url: string): Promise<{ status: number; fingerprint: string }> {
  return new Promise((resolve, reject) => {
    httpsGet(`${url}/health`, { rejectUnauthorized: false }, (response) => {
      const fingerprint = (response.socket as unknown as { getPeerCertificate(): { fingerprint256: string } }).getPeerCertificate()
        .fingerprint256;
      response.resume();
      response.on('end', () => resolve({ status: response.statusCode ?? 0, fingerprint }));
    }).on('error', reject);
  });
}

function plainHttpFails(url: string): Promise<boolean> {
  return new Promise((resolve) => {
    const request = httpGet(url.replace(/^https:/, 'http:') + '/health', (response) => {
      response.resume();
      resolve(response.statusCode === 200 ? false : true);
    });
    request.on('error', () => resolve(true));
    request.setTimeout(5000, () => {
      request.destroy();
      resolve(true);
    });
  });
}

test(
  'beyond loopback: HTTPS only, with a self-signed certificate kept in the data directory and its fingerprint printed',
  TLS,
  async () => {
    const dataDir = tempDataDir();
    const first = await serve(dataDir, ['--host', '0.0.0.0']);
    let fingerprint = '';
    try {
      assert.match(first.url, /^https:\/\/127\.0\.0\.1:\d+$/);
      const printed = /certificate fingerprint \(SHA-256\): ([0-9A-F:]{95})/.exec(first.stdout)?.[1];
      assert.ok(printed, first.stdout);
      const stored = new X509Certificate(readFileSync(join(dataDir, 'tls', 'self-signed.crt'))).fingerprint256;
      assert.equal(printed, stored);
      const health = await httpsHealth(first.url);
      assert.equal(health.status, 200);
      assert.equal(health.fingerprint, printed, 'the server presents the printed certificate');
      assert.ok(await plainHttpFails(first.url), 'plain HTTP gets no answer beyond loopback');
      fingerprint = printed;
    } finally {
      await first.stop();
    }
    // The certificate is made once: a restart presents the same one (pinned clients keep working).
    const second = await serve(dataDir, ['--host', '0.0.0.0']);
    try {
      assert.equal((await httpsHealth(second.url)).fingerprint, fingerprint);
    } finally {
      await second.stop();
    }
  },
);

test('a configured certificate is used as given, on loopback too; loopback without one stays plain HTTP', TLS, async () => {
  // A certificate made elsewhere (here: by the same code in another directory).
  const elsewhere = tempDataDir();
  const made = tlsFor({ host: '0.0.0.0', dataDir: elsewhere, tlsCert: null, tlsKey: null });
  assert.ok(made);
  const dataDir = tempDataDir();
  const server = await serve(dataDir, [
    '--host',
    '0.0.0.0',
    '--tls-cert',
    join(elsewhere, 'tls', 'self-signed.crt'),
    '--tls-key',
    join(elsewhere, 'tls', 'self-signed.key'),
  ]);
  try {
    assert.match(server.stdout, /the configured certificate/);
    assert.equal((await httpsHealth(server.url)).fingerprint, made.fingerprint);
  } finally {
    await server.stop();
  }
  const loopback = await serve(dataDir, ['--host', '127.0.0.1']);
  try {
    assert.match(loopback.url, /^http:\/\/127\.0\.0\.1:\d+$/);
    assert.equal((await fetch(`${loopback.url}/health`)).status, 200);
  } finally {
    await loopback.stop();
  }
  // A certificate given on loopback is served too, never plain HTTP in its place.
  const pinned = await serve(dataDir, [
    '--host',
    '127.0.0.3',
    '--tls-cert',
    join(elsewhere, 'tls', 'self-signed.crt'),
    '--tls-key',
    join(elsewhere, 'tls', 'self-signed.key'),
  ]);
  try {
    assert.match(pinned.url, /^https:\/\/127\.0\.0\.3:\d+$/);
    assert.match(pinned.stdout, /HTTPS only on 127\.0\.0\.3: the configured certificate/);
    assert.equal((await httpsHealth(pinned.url)).fingerprint, made.fingerprint);
    assert.ok(await plainHttpFails(pinned.url), 'no plain HTTP where HTTPS was configured');
  } finally {
    await pinned.stop();
  }
});
