/** Portuguese (Portugal): network tokens (keys as ./en.ts). */
import type { en } from './en.js';

export const pt = {
} as const satisfies Record<keyof typeof en, string>;
