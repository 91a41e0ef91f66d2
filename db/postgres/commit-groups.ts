/**
 * Group commit on PostgreSQL: units of work that end as one statement of their own (a sale: its
 * transaction, its event and its idempotency record, PgSession `finish`) commit together.
 *
 * While one group is at PostgreSQL, the units that end meanwhile wait; when its answer comes, they
 * leave as the next group: their statements with one Sync, on the connection of the first of them
 * (PreparedBatch, answered at commit), one implicit transaction at READ COMMITTED, as each of them ran alone. A unit
 * that ends while no group is out leaves at the end of the tick, with any that end in the same tick.
 * So under load a commit, a round trip and a backend's wake-up serve many sales, and a lone sale
 * waits for nothing but its own statement. SQLite's store does the same with its batches.
 *
 * A group commits all of its statements or none. When PostgreSQL refuses it (a key already taken, a
 * value out of range, a deadlock), nothing of it was written, and every member runs its statement
 * again alone, on its own connection: each then meets its own outcome, exactly as without groups.
 * When the connection is lost instead, the commit's outcome is unknown: every member fails as
 * storage unavailable, as a lone statement would (its idempotency key then answers the retry).
 */
import type pg from 'pg';
import { corked, PreparedBatch, PreparedQuery } from './pg-query.js';

/** The most statements one group commits. */
const MOST_IN_GROUP = 64;

interface Member {
  client: pg.PoolClient;
  name: string;
  text: string;
  params: unknown[];
  /** The statement alone, on the member's own connection. */
  alone: () => Promise<pg.QueryResult>;
  resolve: (result: pg.QueryResult) => void;
  reject: (error: unknown) => void;
}

/**
 * PostgreSQL refused the group with an ERROR (a SQLSTATE): it rolled all of it back and the session
 * goes on. A FATAL (the backend terminated) or a lost socket leaves the commit's outcome unknown.
 */
function refusedByPostgres(error: unknown): boolean {
  const { code, severity } = (error ?? {}) as { code?: unknown; severity?: unknown };
  return severity === 'ERROR' && typeof code === 'string' && code.length === 5;
}

export class CommitGroups {
  private waiting: Member[] = [];
  private out = false;
  private scheduled = false;
  /** Groups sent, the statements in them, and groups PostgreSQL refused (whose members then ran alone). */
  readonly counts = { groups: 0, statements: 0, refused: 0 };

  /** Units waiting for the group out to be answered. */
  get queued(): number {
    return this.waiting.length;
  }

  /** Runs one unit's only statement, in the next group. */
  commit(
    client: pg.PoolClient,
    name: string,
    text: string,
    params: unknown[],
    alone: () => Promise<pg.QueryResult>,
  ): Promise<pg.QueryResult> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ client, name, text, params, alone, resolve, reject });
      if (!this.out && !this.scheduled) {
        this.scheduled = true;
        process.nextTick(() => this.send());
      }
    });
  }

  private send(): void {
    this.scheduled = false;
    if (this.out || this.waiting.length === 0) return;
    const members = this.waiting.splice(0, MOST_IN_GROUP);
    this.out = true;
    this.counts.groups++;
    this.counts.statements += members.length;
    let left = members.length;
    const ended = () => {
      if (--left > 0) return;
      this.out = false;
      this.next();
    };
    // The group leaves on the connection of its first member whose statement is prepared there; the
    // members whose statements are not prepared on it go alone (the first sales of a connection).
    const queries = members.map((member) => new PreparedQuery(member.name, member.text, member.params));
    const connectionOf = (member: Member) => (member.client as unknown as { connection: unknown }).connection;
    const leader = members.find((member, i) => queries[i]?.known(connectionOf(member)));
    const parts: Array<{ member: Member; query: PreparedQuery }> = [];
    members.forEach((member, i) => {
      const query = queries[i];
      if (leader && query?.known(connectionOf(leader))) parts.push({ member, query });
      else this.runAlone(member, ended);
    });
    if (!leader || parts.length === 0) return;
    const [only] = parts;
    const sent =
      only && parts.length === 1
        ? only.query
        : new PreparedBatch(
            parts.map((part) => part.query),
            'at-commit',
          );
    corked(leader.client, () => void leader.client.query(sent as unknown as pg.QueryConfig));
    let refused = false;
    for (const { member, query } of parts) {
      query.done.then(
        (result) => (member.resolve(result), ended()),
        (error: unknown) => {
          // Refused as a group: each statement alone meets its own outcome. Lost: unknown outcome.
          if (parts.length > 1 && refusedByPostgres(error)) {
            if (!refused) this.counts.refused++;
            refused = true;
            this.runAlone(member, ended);
          } else {
            member.reject(error);
            ended();
          }
        },
      );
    }
  }

  private runAlone(member: Member, ended: () => void): void {
    member.alone().then(member.resolve, member.reject).finally(ended);
  }

  private next(): void {
    if (this.waiting.length > 0 && !this.scheduled) {
      this.scheduled = true;
      process.nextTick(() => this.send());
    }
  }
}
