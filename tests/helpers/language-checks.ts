/**
 * What a browser test of the staff screens in another language looks for (D21, issue 36): English
 * left on the screen (words of the English catalogue that the screen's language does not use), and
 * text cut off (an element whose text overflows a box that hides or scrolls it, or runs past the
 * window). The pseudo-locale en-XA (contract/i18n/pseudo.ts) is treated like a language whose words
 * are the accented ones, so any plain English word on its screens is text no catalogue holds.
 */
import { createIntl } from '@formatjs/intl';
import type { Page } from 'playwright-core';
import { CATALOGUES, type MessageId } from '../../contract/i18n/catalogues.js';
import { formatterFor, type MessageValues } from '../../contract/i18n/format.js';
import type { StaffLanguage } from '../../contract/i18n/languages.js';
import { pseudoMessage, pseudoText } from '../../contract/i18n/pseudo.js';

export type ScreenLanguage = StaffLanguage | 'pseudo';

/** The words of a text: letters only, 4 or more, lower case (short words are too often shared). */
function wordsOf(text: string): string[] {
  return (text.match(/\p{L}{4,}/gu) ?? []).map((word) => word.toLowerCase());
}

/** Words of every message of a catalogue, arguments and ICU keywords included (they are not English the screen shows). */
function catalogueWords(messages: Iterable<string>): Set<string> {
  const words = new Set<string>();
  for (const message of messages) for (const word of wordsOf(message)) words.add(word);
  return words;
}

const ENGLISH = catalogueWords(
  Object.values(CATALOGUES.en).map((message) => message.replace(/\{[^{}]*\b(?:plural|select|selectordinal|number|date|time)\b/g, ' ')),
);

/** The English words a screen in `language` must not show (English's own words it does not share). */
export function englishOnlyWords(language: ScreenLanguage, allowed: readonly string[] = []): Set<string> {
  const own =
    language === 'pseudo'
      ? catalogueWords(Object.values(CATALOGUES.en).map(pseudoText))
      : catalogueWords(Object.values(CATALOGUES[language]));
  const allow = new Set(allowed.flatMap(wordsOf));
  return new Set([...ENGLISH].filter((word) => !own.has(word) && !allow.has(word)));
}

/** Every text a person reads or hears on the page now: visible text, and the names and hints of visible controls. */
export async function screenTexts(page: Page): Promise<string[]> {
  return page.evaluate<string[]>(`(() => {
    const texts = [];
    const visible = (element) => {
      const box = element.getBoundingClientRect();
      const style = getComputedStyle(element);
      return box.width > 0 && box.height > 0 && style.visibility !== 'hidden' && style.display !== 'none';
    };
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const parent = node.parentElement;
      const text = node.textContent?.trim();
      if (!text || !parent || parent.closest('script,style,template')) continue;
      // Screen-reader-only text counts too (it is read out), as long as its box is in the page.
      const hidden = parent.closest('.visually-hidden');
      if (visible(parent) || (hidden && hidden.parentElement && visible(hidden.parentElement))) texts.push(text);
    }
    for (const element of document.querySelectorAll('[aria-label],[title],[placeholder],[alt],[aria-description]')) {
      if (!visible(element)) continue;
      for (const name of ['aria-label', 'title', 'placeholder', 'alt', 'aria-description']) {
        const value = element.getAttribute(name);
        if (value) texts.push(value);
      }
    }
    return texts;
  })()`);
}

/** The English words on the page a screen in `language` should not have said, with where each was. */
export async function englishLeft(page: Page, language: ScreenLanguage, allowed: readonly string[] = []): Promise<string[]> {
  if (language === 'en') return [];
  const forbidden = englishOnlyWords(language, allowed);
  const found: string[] = [];
  for (const text of await screenTexts(page)) {
    const english = wordsOf(text).filter((word) => forbidden.has(word));
    if (english.length > 0) found.push(`${english.join(', ')} in "${text.slice(0, 120)}"`);
  }
  return found;
}

/** Elements whose own text is cut off: it overflows a box that hides, clips, ellipsises or scrolls it, or runs past the window's right edge. */
export async function clippedTexts(page: Page): Promise<string[]> {
  return page.evaluate<string[]>(`(() => {
    const clipped = [];
    const width = document.documentElement.clientWidth;
    for (const element of document.querySelectorAll('body *')) {
      const ownText = [...element.childNodes].filter((node) => node.nodeType === Node.TEXT_NODE).map((node) => node.textContent ?? '').join('').trim();
      if (!ownText || element.closest('.visually-hidden,script,style,svg,[aria-hidden="true"]')) continue;
      const style = getComputedStyle(element);
      const box = element.getBoundingClientRect();
      // Not shown (or shown to screen readers only: the 1 px clipped box of visually hidden text).
      if (box.width <= 1 || box.height <= 1 || style.visibility === 'hidden') continue;
      const hides = (value) => value !== 'visible';
      const overX = element.scrollWidth > element.clientWidth + 1 && (hides(style.overflowX) || style.textOverflow === 'ellipsis');
      const overY = element.scrollHeight > element.clientHeight + 1 && hides(style.overflowY) && style.overflowY !== 'auto' && style.overflowY !== 'scroll';
      if (overX || overY || box.right > width + 1) clipped.push(\`"\${ownText.slice(0, 80)}" (\${element.tagName.toLowerCase()}.\${element.className}) \${Math.round(box.width)} px wide, its text \${element.scrollWidth} px\`);
    }
    // A placeholder wider than its field (the browser cuts it without a scrollbar or an ellipsis).
    const context = document.createElement('canvas').getContext('2d');
    for (const input of document.querySelectorAll('input[placeholder], textarea[placeholder]')) {
      const box = input.getBoundingClientRect();
      if (!context || box.width <= 1 || !input.placeholder) continue;
      const style = getComputedStyle(input);
      context.font = style.fontStyle + ' ' + style.fontWeight + ' ' + style.fontSize + ' ' + style.fontFamily;
      const room = input.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
      const needed = context.measureText(input.placeholder).width;
      if (needed > room + 1) clipped.push('placeholder "' + input.placeholder.slice(0, 80) + '" needs ' + Math.round(needed) + ' px, has ' + Math.round(room));
    }
    return clipped;
  })()`);
}

const pseudoIntl = createIntl({
  locale: 'en-GB',
  messages: Object.fromEntries(Object.entries(CATALOGUES.en).map(([id, text]) => [id, pseudoMessage(text)])),
});

/** What a screen in `language` says for a message: how a test finds a control by its name. */
export function say(language: ScreenLanguage, id: MessageId, values?: MessageValues): string {
  return language === 'pseudo' ? pseudoIntl.formatMessage({ id }, values) : formatterFor(language)(id, values);
}
