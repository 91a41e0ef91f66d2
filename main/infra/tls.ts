/**
 * HTTPS beyond loopback (issue "Reliability and security", 9): a gateway that listens on an address
 * other machines can reach serves HTTPS only, with the configured certificate and key
 * (`tlsCert`/`tlsKey`) or, without them, a self-signed certificate made once and kept in the data
 * directory (`tls/`), whose SHA-256 fingerprint the host prints so a till or POS can pin it.
 * Loopback stays plain HTTP unless a certificate is configured: nothing leaves the machine there.
 */
import { generateKeyPairSync, randomBytes, X509Certificate } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { hostname, networkInterfaces } from 'node:os';
import { join } from 'node:path';
import forge from 'node-forge';
import { isLoopbackHost } from '../../contract/links.js';

export interface TlsMaterial {
  key: string;
  cert: string;
  /** SHA-256 of the certificate (DER), as colon-separated hex pairs. */
  fingerprint: string;
  /** Made by the gateway (not a configured certificate). */
  selfSigned: boolean;
}

export function certificateFingerprint(certPem: string): string {
  return new X509Certificate(certPem).fingerprint256;
}

/**
 * The TLS key and certificate for a host: a configured certificate on any host (loopback too: the
 * operator asked for HTTPS), a self-signed one beyond loopback, none on loopback without one.
 */
export function tlsFor(settings: {
  host: string;
  dataDir: string;
  tlsCert: string | null;
  tlsKey: string | null;
}): TlsMaterial | undefined {
  if (settings.tlsCert || settings.tlsKey) {
    if (!settings.tlsCert || !settings.tlsKey)
      throw new Error('tlsCert and tlsKey go together: give both files, or neither for a self-signed certificate');
    const cert = readFileSync(settings.tlsCert, 'utf8');
    return { key: readFileSync(settings.tlsKey, 'utf8'), cert, fingerprint: certificateFingerprint(cert), selfSigned: false };
  }
  if (isLoopbackHost(settings.host)) return undefined;
  const dir = join(settings.dataDir, 'tls');
  const keyFile = join(dir, 'self-signed.key');
  const certFile = join(dir, 'self-signed.crt');
  if (!existsSync(keyFile) || !existsSync(certFile)) {
    const made = selfSignedCertificate(settings.host);
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    writeFileSync(keyFile, made.key, { mode: 0o600 });
    writeFileSync(certFile, made.cert, { mode: 0o644 });
  }
  const cert = readFileSync(certFile, 'utf8');
  return { key: readFileSync(keyFile, 'utf8'), cert, fingerprint: certificateFingerprint(cert), selfSigned: true };
}

/** An RSA-2048 key (made by Node) and a self-signed certificate for this machine, valid 5 years. */
function selfSignedCertificate(host: string): { key: string; cert: string } {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const keyPem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  const cert = forge.pki.createCertificate();
  cert.publicKey = forge.pki.publicKeyFromPem(publicKey.export({ type: 'spki', format: 'pem' }).toString());
  cert.serialNumber = `01${randomBytes(15).toString('hex')}`;
  const now = new Date();
  cert.validity.notBefore = new Date(now.getTime() - 60_000);
  cert.validity.notAfter = new Date(now.getTime() + 5 * 365 * 24 * 60 * 60 * 1000);
  const name = [
    { name: 'commonName', value: hostname().slice(0, 64) || 'tillgate' },
    { name: 'organizationName', value: 'Tillgate gateway (self-signed)' },
  ];
  cert.setSubject(name);
  cert.setIssuer(name);
  const ips = new Set(['127.0.0.1', '::1']);
  for (const list of Object.values(networkInterfaces())) for (const address of list ?? []) ips.add(address.address);
  if (/^[\d.]+$/.test(host) || host.includes(':')) ips.add(host.replace(/^\[|\]$/g, ''));
  const altNames: Array<{ type: number; value?: string; ip?: string }> = [
    { type: 2, value: 'localhost' },
    { type: 2, value: hostname() },
    ...[...ips].filter((ip) => ip !== '0.0.0.0' && ip !== '::').map((ip) => ({ type: 7, ip })),
  ];
  if (!/^[\d.:[\]]+$/.test(host)) altNames.push({ type: 2, value: host });
  cert.setExtensions([
    { name: 'basicConstraints', cA: false },
    { name: 'keyUsage', digitalSignature: true, keyEncipherment: true },
    { name: 'extKeyUsage', serverAuth: true },
    { name: 'subjectAltName', altNames },
  ]);
  cert.sign(forge.pki.privateKeyFromPem(keyPem), forge.md.sha256.create());
  return { key: keyPem, cert: forge.pki.certificateToPem(cert) };
}
