/** Portuguese (Portugal): receipts the till shows, prints or e-mails, and the printer dialog (keys as ./en.ts). */
import type { en } from './en.js';

export const pt = {
} as const satisfies Record<keyof typeof en, string>;
