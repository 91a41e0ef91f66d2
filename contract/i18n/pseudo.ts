/**
 * The pseudo-locale `en-XA` (D21): English accented and 40 % longer (`[Ţĥé ţîļļ ···]`), its
 * arguments, plurals and selects kept. A computer whose first language is en-XA gets it on every
 * staff screen, so a browser test in it finds text no catalogue holds (plain English) and text cut
 * off by a longer translation. Tests build the same messages from here to find controls by name.
 */
import { parse, TYPE, type MessageFormatElement } from '@formatjs/icu-messageformat-parser';

/** The pseudo-locale's tag (as Android and Chromium name theirs). */
export const PSEUDO_LOCALE = 'en-XA';

const ACCENTS: Readonly<Record<string, string>> = {
  a: 'á',
  c: 'ç',
  e: 'é',
  g: 'ĝ',
  h: 'ĥ',
  i: 'î',
  l: 'ļ',
  n: 'ñ',
  o: 'ö',
  r: 'ŕ',
  s: 'š',
  t: 'ţ',
  u: 'ü',
  y: 'ý',
  z: 'ž',
  A: 'Å',
  C: 'Ç',
  E: 'É',
  I: 'Î',
  N: 'Ñ',
  O: 'Ö',
  S: 'Š',
  T: 'Ţ',
  U: 'Ü',
  Z: 'Ž',
};

/** A message's literal text accented, its arguments, plurals and selects kept. */
function pseudoElements(elements: MessageFormatElement[]): MessageFormatElement[] {
  return elements.map((element) => {
    if (element.type === TYPE.literal) return { ...element, value: element.value.replace(/[A-Za-z]/g, (c) => ACCENTS[c] ?? c) };
    if (element.type === TYPE.plural || element.type === TYPE.select) {
      const options = Object.fromEntries(
        Object.entries(element.options).map(([key, option]) => [key, { ...option, value: pseudoElements(option.value) }]),
      );
      return { ...element, options };
    }
    if (element.type === TYPE.tag) return { ...element, children: pseudoElements(element.children) };
    return element;
  });
}

export function pseudoMessage(message: string): MessageFormatElement[] {
  const padding = '·'.repeat(Math.max(1, Math.round(message.length * 0.4)));
  return [{ type: TYPE.literal, value: '[' }, ...pseudoElements(parse(message)), { type: TYPE.literal, value: ` ${padding}]` }];
}

/** A plain text (no ICU) as the pseudo-locale shows it: what a test looks for. */
export function pseudoText(text: string): string {
  const padding = '·'.repeat(Math.max(1, Math.round(text.length * 0.4)));
  return `[${text.replace(/[A-Za-z]/g, (c) => ACCENTS[c] ?? c)} ${padding}]`;
}
