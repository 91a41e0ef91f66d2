/**
 * Card data from a request: server-to-server fields or card-present `pos_data` (PAN + expiry,
 * track 2, or EMV TLV data). Card data only lives in memory here; it is sealed before storage.
 */
import type { FieldError } from '../../../contract/api/common.js';
import type { PosCard } from '../../../contract/api/payments.js';
import { luhnValid } from '../../../contract/cards.js';
import type { CardData, CardEntryMode } from './ports.js';

export function normalizeYear(year: number): number {
  return year < 100 ? 2000 + year : year;
}

const ENTRY_ALIASES: Record<string, CardEntryMode> = {
  contactless: 'contactless',
  nfc: 'contactless',
  chip: 'chip',
  contact: 'chip',
  icc: 'chip',
  insert: 'chip',
  swipe: 'swipe',
  magstripe: 'swipe',
  magnetic_stripe: 'swipe',
  manual: 'manual',
  keyed: 'manual',
};

export function entryModeOf(value: string | undefined): CardEntryMode | undefined {
  return value === undefined ? undefined : ENTRY_ALIASES[value.toLowerCase()];
}

export interface Track2 {
  pan: string;
  expiryMonth: number;
  expiryYear: number;
}

/** Track 2 (`;PAN=YYMM...?`) or its EMV equivalent (`PAN D YYMM ... F`). */
export function parseTrack2(text: string): Track2 | undefined {
  const match = /^;?(\d{12,19})[=D](\d{2})(\d{2})/i.exec(text.trim());
  if (!match) return undefined;
  const [, pan = '', yy = '', mm = ''] = match;
  const month = Number(mm);
  if (month < 1 || month > 12) return undefined;
  return { pan, expiryMonth: month, expiryYear: 2000 + Number(yy) };
}

export interface EmvCard {
  pan?: string;
  expiryMonth?: number;
  expiryYear?: number;
  track2?: Track2;
  aid?: string;
  applicationLabel?: string;
}

/** Reads the tags we need (5A PAN, 5F24 expiry, 57 track 2, 4F AID, 50 label) from BER-TLV hex. */
export function parseEmv(hex: string): EmvCard | undefined {
  if (!/^([0-9a-fA-F]{2})+$/.test(hex)) return undefined;
  const bytes = Buffer.from(hex, 'hex');
  const card: EmvCard = {};
  const walk = (start: number, end: number): boolean => {
    let i = start;
    while (i < end) {
      if (bytes[i] === 0x00 || bytes[i] === 0xff) {
        i += 1;
        continue;
      }
      const first = bytes[i] ?? 0;
      let tag = first;
      i += 1;
      if ((first & 0x1f) === 0x1f) {
        do {
          if (i >= end) return false;
          tag = tag * 256 + (bytes[i] ?? 0);
          i += 1;
        } while (((bytes[i - 1] ?? 0) & 0x80) !== 0);
      }
      if (i >= end) return false;
      let length = bytes[i] ?? 0;
      i += 1;
      if (length & 0x80) {
        const count = length & 0x7f;
        if (count < 1 || count > 2 || i + count > end) return false;
        length = 0;
        for (let k = 0; k < count; k += 1) length = length * 256 + (bytes[i + k] ?? 0);
        i += count;
      }
      if (i + length > end) return false;
      const value = bytes.subarray(i, i + length);
      if (first & 0x20) {
        if (!walk(i, i + length)) return false;
      } else {
        const text = value.toString('hex').toUpperCase();
        if (tag === 0x5a) card.pan = text.replace(/F+$/, '');
        else if (tag === 0x5f24 && text.length === 6) {
          card.expiryYear = 2000 + Number(text.slice(0, 2));
          card.expiryMonth = Number(text.slice(2, 4));
        } else if (tag === 0x57) card.track2 = parseTrack2(text.replace(/F+$/, ''));
        else if (tag === 0x4f) card.aid = text;
        else if (tag === 0x50) card.applicationLabel = value.toString('latin1').replace(/[^\x20-\x7e]/g, '');
      }
      i += length;
    }
    return true;
  };
  return walk(0, bytes.length) ? card : undefined;
}

export interface ReadCard {
  card: CardData;
  aid?: string;
  applicationLabel?: string;
}

/** The card of a card-present request, from whichever of PAN, track 2 or EMV data it carries. */
export function cardFromPos(input: PosCard | undefined, allErrors: FieldError[]): ReadCard | undefined {
  const errors: FieldError[] = [];
  const read = readPosCard(input, errors);
  allErrors.push(...errors);
  return errors.length ? undefined : read;
}

function readPosCard(input: PosCard | undefined, errors: FieldError[]): ReadCard | undefined {
  if (!input) {
    errors.push({ field: 'pos_data.card', message: 'is required for cardpos' });
    return undefined;
  }
  let pan = input.number;
  let month = input.expiry_month;
  let year = input.expiry_year;
  let aid: string | undefined;
  let applicationLabel: string | undefined;
  if (input.emv_data !== undefined) {
    const emv = parseEmv(input.emv_data);
    if (!emv) errors.push({ field: 'pos_data.card.emv_data', message: 'must be BER-TLV hex data' });
    else {
      pan ??= emv.pan ?? emv.track2?.pan;
      month ??= emv.expiryMonth ?? emv.track2?.expiryMonth;
      year ??= emv.expiryYear ?? emv.track2?.expiryYear;
      aid = emv.aid;
      applicationLabel = emv.applicationLabel;
    }
  }
  if (input.track2_data !== undefined) {
    const track = parseTrack2(input.track2_data);
    if (!track) errors.push({ field: 'pos_data.card.track2_data', message: 'must be track 2 data: PAN=YYMM...' });
    else {
      pan ??= track.pan;
      month ??= track.expiryMonth;
      year ??= track.expiryYear;
    }
  }
  if (pan === undefined) {
    if (input.emv_data === undefined && input.track2_data === undefined) {
      errors.push({ field: 'pos_data.card.number', message: 'is required unless track2_data or emv_data carries the card' });
    }
    return undefined;
  }
  if (!luhnValid(pan))
    errors.push({ field: 'pos_data.card.number', message: 'must be a card number of 12 to 19 digits that passes the Luhn check' });
  if (month === undefined || month < 1 || month > 12) errors.push({ field: 'pos_data.card.expiry_month', message: 'must be 1 to 12' });
  if (year === undefined || normalizeYear(year) < 2000 || normalizeYear(year) > 2099) {
    errors.push({ field: 'pos_data.card.expiry_year', message: 'must be a year such as 2028' });
  }
  if (errors.length) return undefined;
  return {
    card: { pan, expiryMonth: month as number, expiryYear: normalizeYear(year as number) },
    ...(aid ? { aid } : {}),
    ...(applicationLabel ? { applicationLabel } : {}),
  };
}

/** Server-to-server card fields of the payment request. */
export function cardFromFields(
  fields: { card_number?: string; card_expiry_month?: string; card_expiry_year?: string; card_cvv?: string; card_holder?: string },
  allErrors: FieldError[],
): CardData | undefined {
  if (fields.card_number === undefined) return undefined;
  const errors: FieldError[] = [];
  const card = readCardFields(fields, errors);
  allErrors.push(...errors);
  return errors.length ? undefined : card;
}

function readCardFields(
  fields: { card_number?: string; card_expiry_month?: string; card_expiry_year?: string; card_cvv?: string; card_holder?: string },
  errors: FieldError[],
): CardData | undefined {
  if (fields.card_number === undefined) return undefined;
  const pan = fields.card_number.replace(/[\s-]/g, '');
  if (!luhnValid(pan))
    errors.push({ field: 'card_number', message: 'must be a card number of 12 to 19 digits that passes the Luhn check' });
  const month =
    fields.card_expiry_month !== undefined && /^\d{1,2}$/.test(fields.card_expiry_month) ? Number(fields.card_expiry_month) : Number.NaN;
  if (!(month >= 1 && month <= 12))
    errors.push({ field: 'card_expiry_month', message: 'is required with card_number: 1 to 12, e.g. "09"' });
  const yearText = fields.card_expiry_year;
  const year = yearText !== undefined && /^(\d{2}|\d{4})$/.test(yearText) ? normalizeYear(Number(yearText)) : Number.NaN;
  if (!(year >= 2000 && year <= 2099))
    errors.push({ field: 'card_expiry_year', message: 'is required with card_number: a year such as "2028"' });
  if (fields.card_cvv !== undefined && !/^\d{3,4}$/.test(fields.card_cvv))
    errors.push({ field: 'card_cvv', message: 'must be 3 or 4 digits' });
  if (errors.length) return undefined;
  return {
    pan,
    expiryMonth: month,
    expiryYear: year,
    ...(fields.card_cvv !== undefined ? { cvv: fields.card_cvv } : {}),
    ...(fields.card_holder !== undefined ? { holder: fields.card_holder } : {}),
  };
}
