// Values a fuzzer sends to break a JSON API rather than to use it: nesting far deeper than any
// stack, very long strings and arrays, and Unicode that trips encoders and databases (NUL, lone
// surrogates, bidi overrides, combining marks, astral characters). `jsonText` writes a body with
// them; JSON.stringify itself cannot write the deep ones (it recurses).
import fc from 'fast-check';

/** Arrays or objects nested `levels` deep, written as text when the body is serialized. */
export class Deep {
  constructor(
    readonly levels: number,
    readonly kind: 'array' | 'object',
  ) {}

  text(): string {
    return this.kind === 'array'
      ? `${'['.repeat(this.levels)}${']'.repeat(this.levels)}`
      : `${'{"a":'.repeat(this.levels - 1)}{}${'}'.repeat(this.levels - 1)}`;
  }
}

const deep = fc
  .tuple(
    fc.oneof(fc.integer({ min: 1, max: 40 }), fc.integer({ min: 1_000, max: 25_000 })),
    fc.constantFrom<'array' | 'object'>('array', 'object'),
  )
  .map(([levels, kind]) => new Deep(levels, kind));

/** Characters that are valid JSON but unusual to a database, a log line or a regular expression. */
const oddCharacter = fc.oneof(
  fc.constantFrom(
    '\u0000',
    '\u0001',
    '\u001f',
    '\u007f',
    '\u00a0',
    '\u200b',
    '\u200d',
    '\u202e',
    '\u2028',
    '\ufeff',
    '\uffff',
    '\ufffd',
    'e\u0301',
    '\u0130',
    'ß',
    '😀',
    '👩‍👩‍👧',
    '𝟘',
    '\\',
    '"',
    '%00',
    "'; --",
  ),
  fc.integer({ min: 0xd800, max: 0xdfff }).map((unit) => String.fromCharCode(unit)), // a lone surrogate
  fc.string({ unit: 'binary', maxLength: 4 }),
);

export const unusualUnicode = fc.array(oddCharacter, { minLength: 1, maxLength: 40 }).map((parts) => parts.join(''));

const longString = fc.oneof(
  fc.tuple(fc.integer({ min: 300, max: 300_000 }), fc.constantFrom('x', '9', '😀', '\u0000', 'é', ' ')).map(([n, c]) => c.repeat(n)),
  fc.tuple(fc.integer({ min: 1, max: 40_000 }), fc.constantFrom('4111111111111111', '[{', 'a@b.c ')).map(([n, c]) => c.repeat(n)),
);

const longArray = fc
  .tuple(fc.integer({ min: 100, max: 50_000 }), fc.constantFrom<unknown>(0, 'x', null, {}, [], 1.5))
  .map(([n, item]) => Array.from({ length: n }, () => item));

/** One hostile value. */
export const hostileValue: fc.Arbitrary<unknown> = fc.oneof(deep, unusualUnicode, longString, longArray);

/** JSON text of `value`, with each Deep written out at its depth. */
export function jsonText(value: unknown): string {
  const deepValues: Deep[] = [];
  const text = JSON.stringify(value, (_key, v: unknown) => {
    if (v instanceof Deep) {
      deepValues.push(v);
      return `\u0000deep:${deepValues.length - 1}\u0000`;
    }
    return v;
  });
  return text.replace(/"\\u0000deep:(\d+)\\u0000"/g, (_all, index: string) => (deepValues[Number(index)] as Deep).text());
}

/**
 * A copy of `example` with one hostile value put in: in place of a field, as an extra field, or
 * inside one of its objects.
 */
export function withHostileValue(example: unknown): fc.Arbitrary<unknown> {
  if (example === null || typeof example !== 'object' || Array.isArray(example)) return hostileValue;
  const body = example as Record<string, unknown>;
  const keys = Object.keys(body);
  return fc.tuple(fc.nat(), fc.constantFrom('replace', 'extra', 'inside'), hostileValue).map(([pick, where, value]) => {
    const copy: Record<string, unknown> = structuredClone(body);
    const key = keys.length ? (keys[pick % keys.length] as string) : 'x';
    const field = copy[key];
    if (where === 'replace' || !keys.length) copy[key] = value;
    else if (where === 'inside' && field && typeof field === 'object' && !Array.isArray(field)) {
      const inner = field as Record<string, unknown>;
      const innerKeys = Object.keys(inner);
      inner[innerKeys.length ? (innerKeys[pick % innerKeys.length] as string) : 'x'] = value;
    } else copy.deep = value;
    return copy;
  });
}

/**
 * Percent-encoding of every UTF-16 code unit of `text`, lone surrogates included (as the three
 * bytes WTF-8 gives them, which are not UTF-8): what a careless client puts in a URL, where
 * encodeURIComponent would throw.
 */
export function percentEncodeAnyText(text: string): string {
  let out = '';
  for (const char of text) {
    const unit = char.charCodeAt(0);
    if (char.length === 1 && unit >= 0xd800 && unit <= 0xdfff) {
      out += [0xe0 | (unit >> 12), 0x80 | ((unit >> 6) & 0x3f), 0x80 | (unit & 0x3f)]
        .map((b) => `%${b.toString(16).toUpperCase()}`)
        .join('');
    } else out += encodeURIComponent(char);
  }
  return out;
}
