/** Portuguese (Portugal): the frame: header, menu, areas, idle lock, language control, session messages (keys as ./en.ts). */
import type { en } from './en.js';

export const pt = {
} as const satisfies Record<keyof typeof en, string>;
