/** German: the transaction list, detail, filters, export and money actions (keys as ./en.ts). */
import type { en } from './en.js';

export const de = {
} as const satisfies Record<keyof typeof en, string>;
