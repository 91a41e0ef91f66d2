/** Croatian: Settings: profile, staff, tills, shops, channels, SMTP, credentials, audit log (keys as ./en.ts). */
import type { en } from './en.js';

export const hr = {
} as const satisfies Record<keyof typeof en, string>;
