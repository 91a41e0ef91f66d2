// pg's own helpers (pg/lib/utils.js), which its package exports but does not type.
declare module 'pg/lib/utils.js' {
  const utils: {
    /** A JavaScript value as pg sends it (dates, arrays, buffers, JSON). */
    prepareValue(value: unknown): unknown;
  };
  export default utils;
}
