// The staff screens' message catalogues (D21, issue 36): every language has exactly English's keys,
// every message is valid ICU MessageFormat with the same arguments as English's, and a translation
// equal to the English text is allowed only where the word is the same in that language (PIN). The
// language a screen speaks: the staff member's own, else the shop's, else the computer's, else English.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parse, TYPE, type MessageFormatElement } from '@formatjs/icu-messageformat-parser';
import { createIntl } from '@formatjs/intl';
import { AREAS, CATALOGUES, type MessageId } from '../../contract/i18n/catalogues.js';
import { INTL_LOCALES, STAFF_LANGUAGES, staffLanguage, type StaffLanguage } from '../../contract/i18n/languages.js';
import { pseudoMessage, pseudoText } from '../../contract/i18n/pseudo.js';

/** The same text as English, on purpose (the word is the same there): each area's `sameAsEnglish`. */
const SAME_AS_ENGLISH: Readonly<Record<Exclude<StaffLanguage, 'en'>, ReadonlySet<string>>> = {
  de: new Set(Object.values(AREAS).flatMap((area) => area.sameAsEnglish.de as readonly string[])),
  pt: new Set(Object.values(AREAS).flatMap((area) => area.sameAsEnglish.pt as readonly string[])),
  hr: new Set(Object.values(AREAS).flatMap((area) => area.sameAsEnglish.hr as readonly string[])),
};

/** The argument names a message uses, with their kind (plain, plural, select, number, date). */
function argumentsOf(elements: MessageFormatElement[], into = new Map<string, string>()): Map<string, string> {
  for (const element of elements) {
    if (element.type === TYPE.argument) into.set(element.value, 'argument');
    if (element.type === TYPE.number || element.type === TYPE.date || element.type === TYPE.time)
      into.set(element.value, TYPE[element.type]);
    if (element.type === TYPE.plural || element.type === TYPE.select) {
      into.set(element.value, TYPE[element.type]);
      for (const option of Object.values(element.options)) argumentsOf(option.value, into);
    }
    if (element.type === TYPE.tag) {
      into.set(element.value, 'tag');
      argumentsOf(element.children, into);
    }
  }
  return into;
}

describe('the staff message catalogues', () => {
  const english = CATALOGUES.en;
  const keys = Object.keys(english).sort();

  for (const language of STAFF_LANGUAGES) {
    test(`${language}: exactly the English keys, each valid ICU with English's arguments`, () => {
      const catalogue = CATALOGUES[language];
      assert.deepEqual(Object.keys(catalogue).sort(), keys, `${language} has a missing or an extra key`);
      for (const id of keys as MessageId[]) {
        const message = catalogue[id];
        assert.ok(message.trim().length > 0, `${language} ${id} is empty`);
        const elements = parse(message);
        assert.deepEqual(
          [...argumentsOf(elements)].sort(),
          [...argumentsOf(parse(english[id]))].sort(),
          `${language} ${id}: other arguments than English's`,
        );
        if (language !== 'en' && message === english[id]) {
          assert.ok(SAME_AS_ENGLISH[language].has(id), `${language} ${id} is still English: "${message}"`);
        }
      }
    });
  }

  test("each area's keys start with its name and no key is in two areas", () => {
    const seen = new Map<string, string>();
    for (const [name, area] of Object.entries(AREAS)) {
      for (const key of Object.keys(area.en)) {
        assert.ok(key.startsWith(`${name}.`), `${key} is in area ${name}`);
        assert.equal(seen.get(key), undefined, `${key} is in ${seen.get(key)} and ${name}`);
        seen.set(key, name);
      }
      for (const language of ['de', 'pt', 'hr'] as const) {
        for (const key of area.sameAsEnglish[language] as readonly string[])
          assert.ok(key in area.en, `${name}.sameAsEnglish.${language} names ${key}, no key of its`);
      }
    }
  });

  test('the pseudo-locale keeps every message formattable with its arguments, accented and at least 30 % longer', () => {
    const intl = createIntl({
      locale: 'en-GB',
      messages: Object.fromEntries(Object.entries(english).map(([id, text]) => [id, pseudoMessage(text)])),
    });
    for (const id of keys as MessageId[]) {
      const tag = (chunks: unknown[]) => chunks.join('');
      const values = Object.fromEntries(
        [...argumentsOf(parse(english[id]))].map(([name, kind]) => [
          name,
          kind === 'plural' || kind === 'number' ? 2 : kind === 'date' || kind === 'time' ? new Date(0) : kind === 'tag' ? tag : 'other',
        ]),
      );
      const text = (formatted: unknown) => (Array.isArray(formatted) ? formatted.join('') : String(formatted));
      const plain = text(createIntl({ locale: 'en-GB', messages: english }).formatMessage({ id }, values));
      const pseudo = text(intl.formatMessage({ id }, values));
      assert.ok(pseudo.length >= plain.length * 1.3, `${id}: "${pseudo}" is not longer than "${plain}"`);
      assert.ok(pseudo.startsWith('[') && pseudo.endsWith(']'), id);
    }
    assert.equal(pseudoText('Save'), '[Šávé ··]');
  });

  test('selects format in every language', () => {
    for (const language of STAFF_LANGUAGES) {
      const intl = createIntl({ locale: INTL_LOCALES[language], messages: CATALOGUES[language] });
      assert.notEqual(
        intl.formatMessage({ id: 'login.missing' }, { method: 'pin' }),
        intl.formatMessage({ id: 'login.missing' }, { method: 'password' }),
        language,
      );
    }
  });

  test("a screen's language: the staff member's own, else the shop's, else the computer's first supported, else English", () => {
    assert.equal(staffLanguage({ own: 'hr', shop: 'de', computer: ['pt-PT'] }), 'hr');
    assert.equal(staffLanguage({ own: null, shop: 'de', computer: ['pt-PT'] }), 'de');
    assert.equal(staffLanguage({ own: 'fr', shop: 'xx', computer: ['fr-FR', 'pt-BR', 'de'] }), 'pt');
    assert.equal(staffLanguage({ computer: ['fr-FR', 'ja'] }), 'en');
    assert.equal(staffLanguage({}), 'en');
  });
});
