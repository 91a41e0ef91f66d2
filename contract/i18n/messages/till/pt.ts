/** Portuguese (Portugal): the till: keypad, card prompt, PIN, results, banners, store-and-forward, shortcuts help (keys as ./en.ts). */
import type { en } from './en.js';

export const pt = {
} as const satisfies Record<keyof typeof en, string>;
