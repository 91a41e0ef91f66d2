/** Portuguese (Portugal): this till and the shop: joining, the centre banner, the till gate (keys as ./en.ts). */
import type { en } from './en.js';

export const pt = {
} as const satisfies Record<keyof typeof en, string>;
