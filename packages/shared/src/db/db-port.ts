/**
 * The database port: plain SQL with positional parameters ($1, $2, ...), the same text on PostgreSQL and PGlite.
 * We use SQL directly rather than an ORM because the designs that matter here (ON CONFLICT single-use ids,
 * FOR UPDATE SKIP LOCKED queues, unique-constraint idempotency) are SQL features; see docs/decisions.md.
 */
export interface Queryable {
  /**
   * Runs one statement and returns its rows. Rejects with the driver's error (which carries `code`, e.g. 23505).
   * With `opts.name`, PostgreSQL prepares the statement once per connection under that name and later calls only
   * bind and execute it (no parse/plan per call): for hot statements; the same name must always carry the same
   * text. PGlite ignores the name.
   */
  query<T = Record<string, unknown>>(text: string, params?: unknown[], opts?: QueryOptions): Promise<T[]>;
  /** Runs a script of several statements as sent (simple query protocol; no parameters), e.g. a migration file. */
  exec(sql: string): Promise<void>;
}

/** Options of {@link Queryable.query}. */
export interface QueryOptions {
  /** Name of a prepared statement (PostgreSQL; per connection, unique per statement text). */
  name?: string;
}

export interface Db extends Queryable {
  /** Runs `fn` inside one transaction; commits when it resolves, rolls back when it throws. */
  tx<T>(fn: (q: Queryable) => Promise<T>): Promise<T>;
  /** Answers when the database does (readiness); rejects with the driver's error otherwise. */
  ping(): Promise<void>;
  /** 'postgres' or 'pglite', for health output and logs. */
  readonly kind: 'postgres' | 'pglite';
  /**
   * Subscribes to PostgreSQL notifications (`LISTEN channel`; senders use `NOTIFY` or `pg_notify`, delivered after
   * their transaction commits). `channel` is a lower-case SQL identifier. On PostgreSQL the subscription has its own
   * connection outside the pool; when that connection is lost, `lost` is called, notifications sent meanwhile are
   * missed, and it reconnects and LISTENs again in the background (then `listening` is called again). PGlite is
   * in-process: its subscription is never lost. Resolves after the first LISTEN attempt, whether it succeeded
   * (`listening` called, `active` true) or not (`lost` called, retried in the background on PostgreSQL).
   * Optional in the port: a wrapper that does not forward it (a test or benchmark counter) has none, and callers
   * then act as if notifications were unavailable (a cache that depends on them stays off).
   */
  listen?(channel: string, handlers: ListenHandlers): Promise<Subscription>;
  close(): Promise<void>;
}

/** Callbacks of a {@link Db.listen} subscription. */
export interface ListenHandlers {
  /** One notification on the channel: the payload as sent ('' when sent without one). */
  notify(payload: string): void;
  /** LISTEN is in effect (the first time, or again after a reconnect): notifications sent from now on arrive. */
  listening?(): void;
  /** The listening connection was lost or could not be opened: notifications are missed until the next `listening`. */
  lost?(err: Error): void;
}

/** A live {@link Db.listen} subscription. */
export interface Subscription {
  /** True while LISTEN is in effect (false between a loss and the next successful reconnect, and after close). */
  readonly active: boolean;
  /** Stops listening (on PostgreSQL, closes the dedicated connection); no callback is called after it resolves. */
  close(): Promise<void>;
}
