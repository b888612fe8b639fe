import type { ClientClock, Logger } from '../index.js';
import { parseHttpDate } from './http-date.js';
import { usableServiceTime } from './month-bounds.js';

/** Two readings within this of each other tell the same time (one-second resolution, the network's delay). */
const AGREE_MS = 5_000;
/** Answers that must agree, one after another, to move an estimate the service has confirmed. */
const AGREEING = 3;
/** A reading this far from a confirmed estimate is not the service's clock being set: it is refused. */
const FAR_MS = 180 * 86_400_000;
/** Far readings that must agree, one after another with no other between them, before the estimate follows. */
const FAR_AGREEING = 8;
/** Readings of each source kept to choose a first estimate by. */
const WINDOW = 6;
/** Summaries read at most, in one poll, to confirm a first estimate. */
const CONFIRM_READS = 4;
/** The machine's clock counts for a first estimate within this of it (it only settles a split). */
const LOCAL_REACH_MS = 86_400_000;
/**
 * A reading this far before the time the service's data shows (`reached`) contradicts it: the data
 * may be written on another server's clock than the answers, so a few minutes apart still agree.
 */
const DATA_SLACK_MS = 10 * 60_000;
/** RFC 3339 with a zone, as the summary's `generated_at` is written. */
const RFC_3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?(Z|[+-]\d{2}:\d{2})$/i;

type Source = 'generated_at' | 'Date';

interface Reading {
  /** Service time minus the client's monotonic reading, in ms. */
  offset: number;
  source: Source;
}

/** What a `ServiceClock` tells the watcher about answers whose time it did not take. */
export interface ServiceClockReports {
  /** The client's logger: each kind of refused time is reported once per watcher. */
  logger?: Logger;
  /** Called for each answer's time that the estimate does not follow (`stats.serviceTimeOutliers`). */
  onOutlier?: () => void;
}

/**
 * The service's time, as its answers tell it (`summary.generated_at`, then the `Date` header), kept
 * as an offset from the client's monotonic reading (so setting the machine's clock moves nothing).
 * The watcher compares with the service's data (the billing month, whether a visit is due, when it
 * found a change) by this time; the client's clock only measures intervals.
 *
 * An estimate that one answer cannot move: a broken proxy, a backend whose clock is off behind a
 * balancer, or one odd header would otherwise set the billing month, stamp every event, or take
 * the history for gone back.
 * - Each answer gives one reading: its `generated_at` when it has a usable one, else its `Date`
 *   (RFC 9110's three forms only). A time before 2000 or after 9999-11 is refused, with a warning.
 * - A first estimate is confirmed by two answers that agree and outweigh the rest (a
 *   `generated_at` counts twice, and the machine's clock settles a split); until then the watcher
 *   re-reads the summary (`needsConfirming`).
 * - Until then, the service's data bounds it: a booking listed shows the service's clock reached
 *   its creation (`reached`), so the estimate is never earlier, and a reading well before it is not chosen.
 * - Once confirmed, the estimate moves only when `AGREEING` answers in a row agree on another
 *   time, and a `Date` never against the latest `generated_at`. Readings behind it within
 *   `AGREE_MS` are the network's delay, those ahead move it on. A reading that does not move it is
 *   an outlier; one years from it is refused with a warning, until `FAR_AGREEING` answers in a
 *   row say the same.
 */
export class ServiceClock {
  readonly #local: ClientClock;
  readonly #reports: ServiceClockReports;
  /** Service time minus the client's monotonic reading, in ms; undefined before the first reading. */
  #offset: number | undefined;
  #confirmed = false;
  /** Recent readings, newest last: the first estimate is chosen from them. */
  readonly #window: Reading[] = [];
  /** The last readings that did not support the estimate, one after another, newest last. */
  #against: Reading[] = [];
  /**
   * The same of readings refused as far: kept apart, so that a backend years off behind a
   * balancer neither interrupts the answers that agree on a service clock being set back, nor
   * counts among them.
   */
  #farAgainst: Reading[] = [];
  /** The latest reading (not refused as far) disputed the estimate without moving it yet. */
  #disputed = false;
  /** The latest `generated_at` reading, which a `Date` cannot overturn. */
  #latestReported: number | undefined;
  #lastUsable = false;
  /**
   * The latest time the service's own data showed it had reached (a booking's creation), as an
   * offset like `#offset`; kept only while no answers confirm the estimate.
   */
  #reached: number | undefined;
  readonly #warned = new Set<string>();

  constructor(local: ClientClock, reports: ServiceClockReports = {}) {
    this.#local = local;
    this.#reports = reports;
  }

  /** True once an answer has told a usable time. */
  get known(): boolean {
    return this.#offset !== undefined;
  }

  /**
   * True once several answers agreed on the estimate, and the latest answer did not dispute it
   * (while one does, the service's time may be moving on): only then can its time show that the
   * history went back.
   */
  get confirmed(): boolean {
    return this.#confirmed && !this.#disputed;
  }

  /**
   * The service's time now (epoch ms): the client's until an answer told a usable one; until answers
   * confirm it, never before what the service's data showed (`reached`).
   */
  now(): number {
    const estimate = this.#offset === undefined ? this.#local.now() : this.#local.monotonic() + this.#offset;
    return this.#reached === undefined ? estimate : Math.max(estimate, this.#local.monotonic() + this.#reached);
  }

  /**
   * The service's data shows its clock reached `at` (epoch ms; a booking it lists was created
   * then). Until answers confirm the estimate, the estimate is never earlier than that: a first
   * answer days behind (after a history reset, the only one read) would otherwise stamp each event
   * before the change it reports. A confirmed estimate is the answers' (the data may come from
   * another clock than theirs).
   */
  reached(at: number): void {
    if (this.#confirmed || !Number.isFinite(at) || !usableServiceTime(at)) return;
    const offset = at - this.#local.monotonic();
    if (this.#reached === undefined || offset > this.#reached) this.#reached = offset;
  }

  /**
   * The service's history went back, as its data shows (a booking list shorter than the saved
   * position, bookings gone): its clock may have gone back with it (a sandbox reset, a restored
   * backup), before any answers agree on that. So the estimate runs on but is chosen afresh from
   * the answers that follow, and until they confirm it, `seenAt()` is the earliest they tell: the
   * state forgotten and synced again is never stamped with the time of the history that was lost,
   * which the service's true time would later show as a second history gone back.
   */
  historyWentBack(): void {
    this.#confirmed = false;
    this.#window.length = 0;
    this.#against = [];
    this.#farAgainst = [];
    this.#disputed = false;
    this.#latestReported = undefined;
    this.#reached = undefined;
  }

  /**
   * The service's time to remember as one the service was seen at (a reconciliation's start, a
   * history reset): the estimate once confirmed; before that, the earliest time a recent answer
   * told. Answers that never agreed may leave a first estimate hours ahead of the service, and
   * remembered as seen it would put the next reconciliation off and, once the service's true time
   * is confirmed, pass for a history gone back. Remembered early, it only brings a
   * reconciliation forward.
   */
  seenAt(): number {
    if (this.#confirmed || this.#window.length === 0) return this.now();
    const earliest = Math.min(...this.#window.map((r) => r.offset));
    return this.#local.monotonic() + Math.max(earliest, this.#reached ?? earliest);
  }

  /**
   * After `reads` summaries in a poll: whether to read it again, to confirm a first estimate or to
   * settle one the last answer disputed (only while the last answer told a usable time, at most
   * `CONFIRM_READS` times). A poll then runs on a time its answers agree on: one that ran ahead (a
   * client clock without a monotonic reading that jumped forward) would be kept as the latest the
   * checkpoint saw, and the service's real time would look like a history gone back.
   */
  needsConfirming(reads: number): boolean {
    return !this.confirmed && this.#lastUsable && reads < CONFIRM_READS;
  }

  /** Take the service's time from an answer: its `Date` header, and the UTC time it reported, if any. */
  observe(headers: Headers | undefined, reported?: string): void {
    const monotonic = this.#local.monotonic();
    const fromReport =
      reported === undefined
        ? undefined
        : this.#read('generated_at', RFC_3339.test(reported) ? Date.parse(reported) : undefined, reported);
    const date = headers?.get('date') ?? undefined;
    const fromDate =
      fromReport !== undefined || date === undefined
        ? undefined
        : this.#read('Date', parseHttpDate(date, this.now()), date);
    const at = fromReport ?? fromDate;
    this.#lastUsable = at !== undefined;
    if (at === undefined) return;
    const reading: Reading = { offset: at - monotonic, source: fromReport !== undefined ? 'generated_at' : 'Date' };
    if (this.#confirmed) this.#follow(reading);
    else this.#choose(reading);
  }

  /** A time from `value`, or undefined (warned once per kind) when it is none or one the watcher cannot use. */
  #read(source: Source, at: number | undefined, value: string): number | undefined {
    if (at === undefined || !Number.isFinite(at)) {
      this.#warn(
        `format:${source}`,
        `partner-sdk: event stream: ignoring the service's ${source} ${JSON.stringify(value.slice(0, 64))}: not a time in the form the protocol defines`,
      );
      this.#reports.onOutlier?.();
      return undefined;
    }
    if (!usableServiceTime(at)) {
      this.#warn(
        `range:${source}`,
        `partner-sdk: event stream: refusing the service's ${source} ${JSON.stringify(value.slice(0, 64))}: ` +
          `before 2000 or after 9999-11, a time the SDK cannot work with (a proxy or a server clock is wrong)`,
      );
      this.#reports.onOutlier?.();
      return undefined;
    }
    return at;
  }

  /** Before the estimate is confirmed: the time most answers agree on. */
  #choose(reading: Reading): void {
    this.#window.push(reading);
    for (const source of ['generated_at', 'Date'] as const) {
      const same = this.#window.filter((r) => r.source === source);
      if (same.length > WINDOW) this.#window.splice(this.#window.indexOf(same[0] as Reading), 1);
    }
    if (reading.source === 'generated_at') this.#latestReported = reading.offset;
    const local = this.#local.now() - this.#local.monotonic();
    const weigh = (offset: number) =>
      this.#window.reduce((sum, r) => sum + (agree(r.offset, offset) ? (r.source === 'generated_at' ? 2 : 1) : 0), 0) +
      (Math.abs(local - offset) <= LOCAL_REACH_MS ? 2 : 0);
    // A reading before what the service's data shows is wrong, however many agree with it.
    const possible = this.#window.filter(
      (r) => this.#reached === undefined || r.offset >= this.#reached - DATA_SLACK_MS,
    );
    if (possible.length === 0) return;
    const weighed = possible.map((r) => ({
      offset: r.offset,
      weight: weigh(r.offset),
      current: this.#offset !== undefined && agree(r.offset, this.#offset),
    }));
    // Ties keep the current estimate: a split never moves it back and forth.
    const best = weighed.reduce((a, b) =>
      b.weight > a.weight || (b.weight === a.weight && b.current && !a.current) ? b : a,
    );
    const second = Math.max(0, ...weighed.filter((w) => !agree(w.offset, best.offset)).map((w) => w.weight));
    const cluster = possible.filter((r) => agree(r.offset, best.offset));
    // Readings trail the service by the network's delay: the latest of those that agree is the closest.
    this.#offset = Math.max(...cluster.map((r) => r.offset));
    if (cluster.length >= 2 && best.weight > second) {
      this.#confirmed = true;
      this.#reached = undefined;
    }
  }

  /** With a confirmed estimate: follow readings that agree with it, move only when several answers agree elsewhere. */
  #follow(reading: Reading): void {
    const offset = this.#offset as number;
    if (reading.source === 'generated_at' && Math.abs(reading.offset - offset) < FAR_MS)
      this.#latestReported = reading.offset;
    if (agree(reading.offset, offset)) {
      this.#against = [];
      this.#farAgainst = [];
      this.#disputed = false;
      if (reading.offset > offset) this.#offset = reading.offset;
      return;
    }
    const far = Math.abs(reading.offset - offset) >= FAR_MS;
    if (far) {
      const years = ((reading.offset - offset) / (365.25 * 86_400_000)).toFixed(1);
      this.#warn(
        'far',
        `partner-sdk: event stream: refusing a service time ${years} years from the one its other answers ` +
          `agree on (servers behind a balancer whose clocks differ, or a proxy); the stream goes on by the ` +
          `agreed time`,
      );
    }
    // Far readings count only one after another with no other between them.
    if (!far) this.#farAgainst = [];
    const before = far ? this.#farAgainst : this.#against;
    const last = before.at(-1);
    const against = last && agree(last.offset, reading.offset) ? [...before, reading] : [reading];
    if (far) this.#farAgainst = against;
    else this.#against = against;
    const needed = far ? FAR_AGREEING : AGREEING;
    if (!far) this.#disputed = true;
    // generated_at leads: Dates alone never overturn what the latest generated_at says.
    const reportedHolds =
      this.#latestReported !== undefined &&
      agree(this.#latestReported, offset) &&
      against.every((r) => r.source === 'Date');
    if (against.length >= needed && !reportedHolds) {
      this.#offset = Math.max(...against.map((r) => r.offset));
      this.#against = [];
      this.#farAgainst = [];
      this.#disputed = false;
      return;
    }
    this.#reports.onOutlier?.();
  }

  #warn(kind: string, message: string): void {
    if (this.#warned.has(kind)) return;
    this.#warned.add(kind);
    this.#reports.logger?.warn?.(message);
  }
}

function agree(a: number, b: number): boolean {
  return Math.abs(a - b) <= AGREE_MS;
}
