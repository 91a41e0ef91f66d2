/** Reading a database row: columns by name, text that may be NULL. */
export type Row = Record<string, unknown>;

export const str = (v: unknown): string => v as string;

export const optStr = (v: unknown): string | null => (v === null || v === undefined ? null : (v as string));
