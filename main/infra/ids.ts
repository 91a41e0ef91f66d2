/** Id and clock adapters: UUIDv7 ids (time-ordered, so primary-key inserts append). */
import { randomBytes } from 'node:crypto';
import { v7 as uuidv7 } from 'uuid';
import type { Clock, Ids } from '../core/kernel.js';

export const systemClock: Clock = { now: () => new Date() };

export const uuidIds: Ids = {
  newId: () => uuidv7(),
  randomToken: (bytes) => randomBytes(bytes).toString('base64url'),
};
