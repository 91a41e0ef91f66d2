/** Portuguese (Portugal): postbacks, the test outbox and the webhook key (keys as ./en.ts). */
import type { en } from './en.js';

export const pt = {
} as const satisfies Record<keyof typeof en, string>;
