/** Croatian: the staff-facing text of the API's errors the screens show (keys as ./en.ts). */
import type { en } from './en.js';

export const hr = {
} as const satisfies Record<keyof typeof en, string>;
