/**
 * Sends postbacks over HTTP(S) with node:http, a hard timeout, and an address policy checked on
 * the resolved addresses at connect time (so DNS answers cannot slip a private address past it).
 * Responses are read and discarded; a redirect is a failed attempt, not followed.
 */
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import ipaddr from 'ipaddr.js';
import { isPrivateAddress } from '../core/addresses.js';
import type { PostbackSender, SendResult } from '../core/postbacks/delivery.js';

/** A receiver's answer: a 2xx takes the postback, anything else is retried (docs/postbacks.md). */
function receiverAnswer(status: number): SendResult {
  return { kind: 'response', status, delivered: status >= 200 && status < 300 };
}

export class AddressRefusedError extends Error {
  override name = 'AddressRefusedError';
}

export interface SenderOptions {
  /** 'deny' refuses loopback and private-network receivers (server deployments). */
  privateAddresses: 'allow' | 'deny';
}

const agents = {
  http: new http.Agent({ keepAlive: true, maxSockets: 64 }),
  https: new https.Agent({ keepAlive: true, maxSockets: 64 }),
};

export function createPostbackSender(options: SenderOptions): PostbackSender {
  const lookup = (
    hostname: string,
    opts: object,
    callback: (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void,
  ) => {
    dnsLookup(hostname, { ...opts, all: true }, (error, addresses: LookupAddress[]) => {
      if (error) return callback(error, []);
      if (options.privateAddresses === 'deny') {
        const blocked = addresses.find((a) => isPrivateAddress(a.address));
        if (blocked)
          return callback(
            new AddressRefusedError(
              `${hostname} resolves to a private or loopback address (${blocked.address}); postbacks to such addresses are turned off`,
            ),
            [],
          );
      }
      const all = (opts as { all?: boolean }).all;
      if (all) return callback(null, addresses);
      const first = addresses[0];
      return first ? callback(null, first.address, first.family) : callback(new Error(`${hostname} has no address`), []);
    });
  };

  return {
    send({ url, body, headers, timeoutMs }): Promise<SendResult> {
      return new Promise((resolve) => {
        let target: URL;
        try {
          target = new URL(url);
        } catch {
          resolve({ kind: 'refused', message: 'invalid postback URL' });
          return;
        }
        if (target.protocol !== 'http:' && target.protocol !== 'https:') {
          resolve({ kind: 'refused', message: 'postback URLs must be http or https' });
          return;
        }
        const literal = target.hostname.replace(/^\[|\]$/g, '');
        if (options.privateAddresses === 'deny' && ipaddr.isValid(literal) && isPrivateAddress(literal)) {
          resolve({ kind: 'refused', message: `${literal} is a private or loopback address; postbacks to such addresses are turned off` });
          return;
        }
        const client = target.protocol === 'https:' ? https : http;
        let settled = false;
        const finish = (result: SendResult) => {
          if (!settled) {
            settled = true;
            resolve(result);
          }
        };
        const startedAt = performance.now();
        const send = (mayRetry: boolean) => {
          let answered = false;
          const request = client.request(
            target,
            {
              method: 'POST',
              headers: { ...headers, 'content-length': Buffer.byteLength(body) },
              agent: target.protocol === 'https:' ? agents.https : agents.http,
              lookup: lookup as never,
              timeout: timeoutMs,
            },
            (response) => {
              answered = true;
              response.resume();
              response.on('end', () => finish(receiverAnswer(response.statusCode ?? 0)));
              response.on('error', () => finish(receiverAnswer(response.statusCode ?? 0)));
            },
          );
          const deadline = setTimeout(
            () => {
              request.destroy(new Error(`no answer within ${timeoutMs} ms`));
            },
            Math.max(0, timeoutMs - (performance.now() - startedAt)),
          );
          request.on('timeout', () => request.destroy(new Error(`no answer within ${timeoutMs} ms`)));
          request.on('error', (error: NodeJS.ErrnoException) => {
            clearTimeout(deadline);
            // A kept-alive connection the receiver closed while it was idle (its keep-alive timeout
            // ran out as we took it from the pool): the request never reached it. Send it once more
            // on a new connection instead of counting a failed attempt.
            if (mayRetry && !answered && request.reusedSocket && (error.code === 'ECONNRESET' || error.code === 'EPIPE')) {
              send(false);
              return;
            }
            finish(
              error instanceof AddressRefusedError
                ? { kind: 'refused', message: error.message }
                : { kind: 'network_error', message: error.message },
            );
          });
          request.on('close', () => clearTimeout(deadline));
          request.end(body);
        };
        send(true);
      });
    },
  };
}
