/**
 * A till's HTTP connection to its centre (issue 26): HTTPS with the centre's certificate pinned (its
 * SHA-256 fingerprint, taken at the join from the pairing code), or plain HTTP to a loopback address
 * only. Every call has a deadline: a centre that does not answer within it counts as away.
 */
import { request as httpRequest, type IncomingHttpHeaders, type OutgoingHttpHeaders } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { TLSSocket } from 'node:tls';
import { isLoopbackHost } from '../../contract/links.js';

export interface CentreEndpoint {
  url: string;
  /** The pinned fingerprint (colon hex, any case), or null for plain HTTP on loopback. */
  fingerprint: string | null;
}

export interface CentreAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

export interface CentreCall {
  method: string;
  path: string;
  headers?: OutgoingHttpHeaders;
  body?: Buffer | string;
  timeoutMs: number;
  /** Checks the certificate the centre presents before anything is sent (the join's pairing code). */
  checkCertificate?: (fingerprint: string) => boolean;
}

/** The centre could not be reached, or did not answer in time, or is not the centre that was pinned. */
export class CentreUnreachableError extends Error {
  override name = 'CentreUnreachableError';
  /** The request may have reached the centre: its outcome is unknown (not refused before it was sent). */
  constructor(
    message: string,
    readonly maybeDelivered: boolean,
  ) {
    super(message);
  }
}

/** Refuses a centre address a till must not use: plain HTTP beyond loopback, anything but http(s). */
export function centreUrlProblem(url: string): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 'must be a URL such as https://backoffice.local:8420';
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') return 'must start with https:// (or http:// for this computer)';
  if (parsed.protocol === 'http:' && !isLoopbackHost(parsed.hostname))
    return 'must be https:// beyond this computer (plain HTTP only to 127.0.0.1 or localhost)';
  return undefined;
}

const same = (a: string, b: string) => a.replaceAll(':', '').toLowerCase() === b.replaceAll(':', '').toLowerCase();

/** One call to the centre. Rejects with CentreUnreachableError when there is no answer. */
export function callCentre(endpoint: CentreEndpoint, call: CentreCall): Promise<CentreAnswer> {
  const url = new URL(call.path, endpoint.url);
  const secure = url.protocol === 'https:';
  const body = call.body === undefined ? undefined : Buffer.isBuffer(call.body) ? call.body : Buffer.from(call.body);
  return new Promise<CentreAnswer>((resolve, reject) => {
    let sent = false;
    const options = {
      method: call.method,
      hostname: url.hostname.replace(/^\[|\]$/g, ''),
      port: url.port || (secure ? 443 : 80),
      path: `${url.pathname}${url.search}`,
      headers: { ...call.headers, ...(body ? { 'content-length': String(body.length) } : {}) },
      // The certificate is checked by its pinned fingerprint, not by a CA: a shop's centre is self-signed.
      ...(secure ? { rejectUnauthorized: false } : {}),
      agent: false as const,
    };
    const req = (secure ? httpsRequest : httpRequest)(options, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', () => reject(new CentreUnreachableError("the centre's answer was cut off", true)));
    });
    req.setTimeout(call.timeoutMs, () => req.destroy(new Error('timeout')));
    let connected = false;
    // Refused before the connection was up (or the certificate was wrong): nothing reached the centre.
    req.on('error', (error) => reject(new CentreUnreachableError(`the centre did not answer (${error.message})`, connected && sent)));
    const send = () => {
      sent = true;
      req.end(body);
    };
    req.on('socket', (socket) => {
      socket.once('connect', () => {
        connected = true;
      });
    });
    if (!secure) {
      send();
      return;
    }
    req.on('socket', (socket) => {
      const tls = socket as TLSSocket;
      const check = () => {
        const presented = tls.getPeerCertificate().fingerprint256 ?? '';
        const pinned = endpoint.fingerprint;
        const ok = call.checkCertificate ? call.checkCertificate(presented) : pinned !== null && same(presented, pinned);
        if (!ok) {
          req.destroy(new Error('the centre presented another certificate than the one pinned at the join'));
          return;
        }
        send();
      };
      tls.once('secureConnect', check);
    });
  });
}
