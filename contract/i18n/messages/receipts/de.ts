/** German: receipts the till shows, prints or e-mails, and the printer dialog (keys as ./en.ts). */
import type { en } from './en.js';

export const de = {
} as const satisfies Record<keyof typeof en, string>;
