// Comments and documents cite files of this repository, or nothing (docs/decisions.md "Comments cite
// this repository (issue 37)"). The specification the gateway was first built from is not in the
// repository, so a mention of its three files points at nothing: this walks the source tree and
// fails on one. The names are built from parts so that this file does not mention them itself.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';

const ABSENT = ['interface', 'ux', 'architecture'].map((name) => `${name}.md`);
const MENTION = new RegExp(`\\b(?:${ABSENT.map((name) => name.replace('.', '\\.')).join('|')})`, 'i');

/** What the walk reads: the source, its tests and tools, and the documents. */
const ROOTS = [
  'main',
  'db',
  'contract',
  'renderer/src',
  'preload',
  'scripts',
  'bench',
  'tests',
  'bin',
  'docs',
  'README.md',
  'eslint.config.js',
];
const SKIPPED_DIRS = new Set(['node_modules', 'dist', '.git']);

function filesUnder(path: string): string[] {
  if (!statSync(path).isDirectory()) return [path];
  return readdirSync(path, { withFileTypes: true }).flatMap((entry) =>
    SKIPPED_DIRS.has(entry.name) ? [] : entry.isDirectory() ? filesUnder(join(path, entry.name)) : [join(path, entry.name)],
  );
}

/** The lines of `text` that mention one of the absent files, as `line: text`. */
function mentionsIn(text: string): string[] {
  return text.split('\n').flatMap((line, index) => (MENTION.test(line) ? [`${index + 1}: ${line.trim()}`] : []));
}

test('the checker finds each absent file in any case, and passes citations of this repository', () => {
  for (const name of ABSENT) {
    assert.equal(mentionsIn(`/** Payments (${name} "Payments"). */`).length, 1, name);
    assert.equal(mentionsIn(`// see ${name.toUpperCase()}, rule 5`).length, 1, name);
  }
  assert.deepEqual(
    mentionsIn('/** Payments (docs/api.md "Payments", docs/decisions.md "Payments engine"). */\nconst linux = "linux.md";'),
    [],
  );
});

test('no file of the source tree or the documents mentions a file that is not in the repository', () => {
  const files = ROOTS.flatMap(filesUnder);
  assert.ok(files.length > 300, `the tree was read (${files.length} files)`);
  const found = files.flatMap((file) => {
    const bytes = readFileSync(file);
    if (bytes.subarray(0, 8000).includes(0)) return []; // a screenshot, a font: no text
    return mentionsIn(bytes.toString('utf8')).map((line) => `${file}:${line}`);
  });
  assert.deepEqual(found, [], 'cite docs/api.md, docs/decisions.md "<section>" or a source file instead');
});
