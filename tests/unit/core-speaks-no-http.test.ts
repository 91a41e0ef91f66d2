// The core says what happened (created, accepted, refused with an error code); main/http picks the
// HTTP status (issue 28, item 3). This reads main/core's code and fails on an HTTP status in it.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';

/** The code of a file without its comments (a comment may explain an answer's status). */
function codeOf(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`\\])\/\/.*$/gm, '$1');
}

const RULES: Array<[RegExp, string]> = [
  [/\b(?:status|httpStatus)\w*\s*(?:===|!==|==|!=|>=|<=|>|<|:|=)\s*[1-5]\d\d\b/i, 'a status compared with or set to an HTTP status'],
  [/\b[1-5]\d\d\s*(?:===|!==|==|!=|>=|<=|>|<)\s*[\w.?]*status/i, 'an HTTP status compared with a status'],
  [/\b(?:success|created|accepted|failure)\([^;]*,\s*[1-5]\d\d\s*\)/, 'an outcome given an HTTP status'],
  [
    /\b(?:httpStatusOf|httpStatusOfAnswer|DONE_HTTP_STATUS|answerKindOf|ERROR_HTTP_STATUS)\b/,
    "the contract's HTTP mapping (main/http/replies.ts uses it)",
  ],
  [/from '(?:fastify|@fastify\/[\w-]+)'/, 'Fastify'],
];

/** What in `code` speaks HTTP, one line per finding. */
function httpIn(code: string): string[] {
  const found: string[] = [];
  code.split('\n').forEach((line, index) => {
    for (const [pattern, what] of RULES) if (pattern.test(line)) found.push(`${index + 1}: ${what}: ${line.trim()}`);
  });
  return found;
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    return entry.isDirectory() ? filesUnder(path) : entry.name.endsWith('.ts') ? [path] : [];
  });
}

test('the checker finds each way of speaking HTTP, and passes domain code', () => {
  assert.equal(httpIn('return success(view, 201);').length, 1);
  assert.equal(httpIn('if (answer.status < 200 || answer.status > 299) return;').length, 1);
  assert.equal(httpIn('if (200 <= reply.status) return;').length, 1);
  assert.equal(httpIn('return { status: 404, body };').length, 1);
  assert.equal(httpIn('const status = httpStatusOf(error.error_code);').length, 1);
  assert.equal(httpIn("import type { FastifyReply } from 'fastify';").length, 1);
  assert.deepEqual(
    httpIn(
      codeOf(
        "// answers 409 when taken\nreturn created(view);\nconst limit = 500;\nif (record.statusCode === S.completed) return;\nconst fields = ['company', 200];",
      ),
    ),
    [],
  );
});

test('main/core has no HTTP status and no HTTP mapping in its code', () => {
  const files = filesUnder('main/core');
  assert.ok(files.length > 50, 'the core was read');
  const found = files.flatMap((file) => httpIn(codeOf(readFileSync(file, 'utf8'))).map((line) => `${file}:${line}`));
  assert.deepEqual(found, []);
});
