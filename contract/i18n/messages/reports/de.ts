/** German: Close the day, X/Z reports (screen, PDF, printer lines) and the shop's day (keys as ./en.ts). */
import type { en } from './en.js';

export const de = {
} as const satisfies Record<keyof typeof en, string>;
