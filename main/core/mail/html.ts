/**
 * A plain-text e-mail (the invoice and receipt templates are text, D11) as the HTML document the
 * Test environment's outbox previews in a sandboxed frame: every character escaped, paragraphs at
 * blank lines, line breaks kept, web addresses as links. The document loads nothing from anywhere
 * (its own policy says so, and the frame's sandbox runs no script).
 */

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c] ?? c);
}

const URL_PATTERN = /\bhttps?:\/\/[^\s<>"']+/g;

/** One line: escaped, with its web addresses as links. */
function lineHtml(line: string): string {
  let html = '';
  let last = 0;
  for (const match of line.matchAll(URL_PATTERN)) {
    const url = match[0].replace(/[.,;:!?)]+$/, '');
    const at = match.index;
    html += escapeHtml(line.slice(last, at));
    html += `<a href="${escapeHtml(url)}">${escapeHtml(url)}</a>`;
    last = at + url.length;
  }
  return html + escapeHtml(line.slice(last));
}

export function mailHtml(mail: { subject: string; text: string; lang?: string }): string {
  const paragraphs = mail.text
    .replace(/\r\n?/g, '\n')
    .split(/\n{2,}/)
    .map((block) => block.trim())
    .filter((block) => block !== '')
    .map((block) => `<p>${block.split('\n').map(lineHtml).join('<br>\n')}</p>`);
  return [
    '<!doctype html>',
    `<html lang="${escapeHtml(mail.lang ?? 'en')}">`,
    '<head>',
    '<meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">`,
    `<title>${escapeHtml(mail.subject)}</title>`,
    '<style>body{margin:0;padding:20px 24px;font:15px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1b1f24;background:#fff}p{margin:0 0 14px}a{color:#0b57d0;word-break:break-all}</style>',
    '</head>',
    '<body>',
    ...paragraphs,
    '</body>',
    '</html>',
  ].join('\n');
}
