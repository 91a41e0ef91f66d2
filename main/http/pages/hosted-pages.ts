/**
 * The customer-facing pages the gateway serves itself ({public_url}/pay/..., /checkout/..., /receipt/...):
 * server-rendered HTML from a tiny escaping template helper, one stylesheet and one script from
 * /pay/assets/, a strict CSP, four languages. No merchant authentication: the unguessable id in
 * the URL is the key (see transaction-pages.ts). Registered by buildServer; encapsulated, so its
 * form-body parser and HTML error pages apply to these routes only.
 */
import type { FastifyError, FastifyPluginAsync } from 'fastify';
import type { Gateway } from '../../core/gateway.js';
import { checkoutPages } from './checkout-pages.js';
import { pageRequest, sendHtml, type HostedPagesOptions, type PagesDeps } from './context.js';
import { renderPage, statusBlock } from './layout.js';
import { invoicePages } from './invoice-pages.js';
import { receiptPages } from './receipt-pages.js';
import { transactionPages } from './transaction-pages.js';

export type { HostedPagesOptions } from './context.js';

/** Form posts are small: a card, a few address lines. */
const FORM_BODY_LIMIT = 32 * 1024;

function parseForm(text: string): Record<string, string> {
  const body: Record<string, string> = Object.create(null) as Record<string, string>;
  for (const [key, value] of new URLSearchParams(text)) if (!(key in body)) body[key] = value;
  return body;
}

export function hostedPages(gateway: Gateway, options: HostedPagesOptions = {}): FastifyPluginAsync {
  const deps: PagesDeps = { gateway, options };
  return async (app) => {
    app.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string', bodyLimit: FORM_BODY_LIMIT },
      (_request, body, done) => {
        const form = parseForm(String(body));
        // No browser sends U+0000 in a form, and PostgreSQL cannot hold it (json-body.ts).
        if (Object.entries(form).some(([key, value]) => `${key}${value}`.includes('\u0000')))
          done(Object.assign(new Error('form with the NUL character'), { statusCode: 400 }), undefined);
        else done(null, form);
      },
    );
    // Other encodings a browser form may use (multipart, text/plain): the pages only show themselves then.
    app.addContentTypeParser('*', { parseAs: 'string', bodyLimit: FORM_BODY_LIMIT }, (_request, _body, done) => done(null, {}));

    app.setErrorHandler((error: FastifyError, request, reply) => {
      const status = error.statusCode !== undefined && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 500;
      if (status === 500) request.log.error({ err: error }, 'hosted page failed');
      else request.log.info({ code: error.code, statusCode: status }, 'hosted page client error');
      const pr = pageRequest(request, null);
      const body = statusBlock('bad', pr.t('pages.server_error_title'), [pr.t('pages.server_error_text')]);
      return sendHtml(
        reply,
        status,
        renderPage({ lang: pr.lang, t: pr.t, title: pr.t('pages.server_error_title'), languageHref: pr.languageHref, body }),
      );
    });

    await app.register(transactionPages(deps), { prefix: '/pay' });
    await app.register(invoicePages(deps), { prefix: '/pay' });
    await app.register(checkoutPages(deps), { prefix: '/checkout' });
    await app.register(receiptPages(deps), { prefix: '/receipt' });
  };
}
