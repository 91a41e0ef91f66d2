// Staff screens take their words from the catalogues (docs/decisions.md, D21): lint refuses literal
// text in their JSX, but not the `{' '}` Prettier writes where a line of JSX text ends in a space.
// (Linted as the text of an existing screen file: typescript-eslint's project service knows it.)
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ESLint } from 'eslint';

const eslint = new ESLint();

async function problems(code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: 'renderer/src/till-screen/approved.tsx' });
  return (result?.messages ?? [])
    .filter((m) => m.ruleId === null || m.ruleId.startsWith('i18n/'))
    .map((m) => `${m.ruleId ?? 'fatal'}: ${m.message}`);
}

void test("literal text in a staff screen's JSX is refused, a space between two pieces is not", async () => {
  const t = 'declare const t: (id: string) => string;\n';
  const refused = await problems(`${t}export const A = () => <p>Charge</p>;\n`);
  assert.deepEqual(refused, ['i18n/no-literal-string-in-jsx: Cannot have untranslated text in JSX']);
  assert.deepEqual(await problems(`${t}export const B = () => <button type="button" aria-label="Close">{t('common.close')}</button>;\n`), [
    'i18n/no-literal-string-in-jsx: Cannot have untranslated text in JSX',
  ]);
  assert.deepEqual(await problems(`${t}export const C = () => (\n  <p>\n    {t('a')}{' '}\n    <b>{t('b')}</b>\n  </p>\n);\n`), []);
});
