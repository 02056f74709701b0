import { Cause, Effect, Exit, Metric } from "effect"
import { ApiError } from "../../src/schema/envelope.ts"
import type { ErrorTag } from "../../src/schema/errors.ts"

/**
 * Every metric the server exports (GET /metrics on METRICS_PORT, Prometheus text format), in one place:
 * names carry their unit (`_seconds`, `_total`), labels take values from small fixed sets (routes, reasons,
 * market types), never a player. The alert rules and the dashboard in deploy/ name these; a test checks that
 * each one they name is served. What is counted where things happen is recorded through the functions below;
 * what is a state (a queue's age, the odds leader, the pool) is read when Prometheus scrapes (./sampled.ts).
 */

/** Seconds, for request latencies: 5 ms to 10 s. */
const LATENCY = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]
/** A bet: finer around the 250 ms the alert watches. */
const BET_LATENCY = [0.01, 0.025, 0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.5, 1, 2.5, 5]
/** A price batch, from the leader's write to the socket. */
const ODDS_LAG = [0.01, 0.025, 0.05, 0.1, 0.2, 0.3, 0.5, 1, 2, 5]

const counter = (name: string, description: string) => Metric.counter(name, { description, incremental: true })
const gauge = (name: string, description: string) => Metric.gauge(name, { description })
const histogram = (name: string, description: string, boundaries: ReadonlyArray<number>) => Metric.histogram(name, { description, boundaries })

export const httpRequests = counter("khel_http_requests_total", "HTTP requests answered, by method, route and status.")
export const httpDuration = histogram("khel_http_request_duration_seconds", "Time from a request's arrival to its answer being written, by method and route.", LATENCY)
export const bets = counter("khel_bets_total", "Bets placed or refused, by the reason of a refusal and the market's type.")
export const betDuration = histogram(
  "khel_bet_duration_seconds",
  "Time to place or refuse a bet, by whether its market was in play (in-play bets include their delay).",
  BET_LATENCY
)
export const cashOuts = counter("khel_cash_outs_total", "Cash outs answered, by result: cashed_out, requoted, or the reason of a refusal.")
export const signIns = counter("khel_sign_ins_total", "Sign-ins by result: ok, refused (wrong details), throttled, error.")
export const rateLimited = counter("khel_rate_limited_total", "Requests refused by a rate limit, by the limit.")
export const casinoWalletCalls = counter("khel_casino_wallet_calls_total", "Seamless wallet calls from game providers, by operation and result.")
export const transactionRetries = counter("khel_db_transaction_retries_total", "Database transactions run again after a conflict, by operation.")
export const oddsBatches = counter("khel_odds_batches_sent_total", "Price batches sent to sockets.")
export const oddsBatchLag = histogram(
  "khel_odds_batch_lag_seconds",
  "Time from the odds leader's write of the oldest price in a batch to the batch leaving for its socket.",
  ODDS_LAG
)

export const socketsConnected = gauge("khel_sockets_connected", "socket.io clients connected to this server.")
export const oddsLeading = gauge("khel_odds_leading", "1 while this server runs the odds (leads), else 0.")
export const oddsLeaderSince = gauge("khel_odds_leader_since_timestamp_seconds", "When the current odds leadership began (Unix seconds), by its holder.")
export const deposits = gauge("khel_deposits", "Deposit requests by state.")
export const withdrawals = gauge("khel_withdrawals", "Withdrawal requests by state.")
export const depositsOldestPending = gauge("khel_deposits_oldest_pending_age_seconds", "Age of the oldest deposit request waiting for an operator (0: none).")
export const withdrawalsOldestPending = gauge("khel_withdrawals_oldest_pending_age_seconds", "Age of the oldest withdrawal request waiting for an operator (0: none).")
export const poolConnections = gauge("khel_db_pool_connections", "This server's database connections by state: in_use (running a statement or in a transaction) or idle.")
export const poolMax = gauge("khel_db_pool_max_connections", "The most database connections this server opens.")
export const poolWaiting = gauge("khel_db_pool_waiting", "This server's database sessions waiting for a lock another session holds.")
export const ledgerVerifyOk = gauge("khel_ledger_verify_ok", "1 when the last verify-ledger found the ledger consistent, 0 when it did not.")
export const ledgerVerifyTime = gauge("khel_ledger_verify_timestamp_seconds", "When verify-ledger last ran (Unix seconds; 0: never).")
export const sampleErrors = counter("khel_metrics_sample_errors_total", "Readings of a state at scrape time that failed (its previous value is served).")

type Labels = Readonly<Record<string, string>>

/** A metric with fixed label values, made once per set of values (the label sets are small), so recording allocates nothing new. */
export const labelled = <I, S>(metric: Metric.Metric<I, S>) => {
  const made = new Map<string, Metric.Metric<I, S>>()
  return (labels: Labels) => {
    const key = JSON.stringify(labels)
    let tagged = made.get(key)
    if (tagged === undefined) made.set(key, (tagged = Metric.withAttributes(metric, labels)))
    return tagged
  }
}

const betsBy = labelled(bets)
const betDurationBy = labelled(betDuration)
const signInsBy = labelled(signIns)
const cashOutsBy = labelled(cashOuts)
const walletBy = labelled(casinoWalletCalls)
const retriesBy = labelled(transactionRetries)
export const rateLimitedBy = labelled(rateLimited)

export type MarketTypeLabel = "exchange" | "bookmaker" | "fancy" | "unknown"

/** A refusal's reason: its `ErrorTag`, or `internal` when our side failed (a defect, a 5xx); undefined for success. */
export type Refusal = string | undefined

/** The reasons that say our side failed (the 5xx ones), not the caller. */
const OUR_SIDE: ReadonlyArray<ErrorTag> = ["ServerError", "Unavailable"]

/** How a call that may be refused ended: its reason (`interrupted` when the client left first). */
export const refusalOf = (exit: Exit.Exit<unknown, unknown>): Refusal => {
  if (Exit.isSuccess(exit)) return undefined
  const failure = Cause.findErrorOption(exit.cause)
  if (failure._tag === "Some" && failure.value instanceof ApiError) return OUR_SIDE.includes(failure.value.tag) ? "internal" : failure.value.tag
  return Cause.hasInterruptsOnly(exit.cause) ? "interrupted" : "internal"
}

/** A market type as a label (`EXCHANGE` → `exchange`); `unknown` when the market is not known. */
export const marketTypeLabel = (marketType: "EXCHANGE" | "BOOKMAKER" | "FANCY" | undefined): MarketTypeLabel =>
  marketType === undefined ? "unknown" : (marketType.toLowerCase() as MarketTypeLabel)

/** Where a bet is answered: placed (no reason) or refused, and how long it took. */
export const recordBet = (refusal: Refusal, marketType: MarketTypeLabel, inPlay: boolean, seconds: number) =>
  Effect.andThen(
    Metric.update(betsBy({ result: refusal === undefined ? "placed" : "refused", reason: refusal ?? "none", market_type: marketType }), 1),
    Metric.update(betDurationBy({ in_play: String(inPlay) }), seconds)
  )

/** A cash out answered: taken, re-quoted, or refused and why. */
export const recordCashOut = (result: string) => Metric.update(cashOutsBy({ result }), 1)

export const recordSignIn = (result: "ok" | "refused" | "throttled" | "error") => Metric.update(signInsBy({ result }), 1)

export const recordWalletCall = (operation: string, refusal: Refusal) =>
  Metric.update(walletBy({ operation, result: refusal ?? "ok" }), 1)

export const recordRetry = (operation: string) => Metric.update(retriesBy({ operation }), 1)

/**
 * Series that exist before anything happens, so a rate or an alert over them reads 0 rather than nothing on a new
 * server (the refusal ratio divides by placed bets). Reading a series registers it.
 */
export const preregister = Effect.all([
  ...(["exchange", "bookmaker", "fancy"] as const).flatMap((marketType) => [
    Metric.value(betsBy({ result: "placed", reason: "none", market_type: marketType })),
    Metric.value(betsBy({ result: "refused", reason: "internal", market_type: marketType }))
  ]),
  Metric.value(betDurationBy({ in_play: "false" })),
  Metric.value(betDurationBy({ in_play: "true" })),
  ...(["ok", "refused", "throttled", "error"] as const).map((result) => Metric.value(signInsBy({ result }))),
  ...["balance", "debit", "credit", "rollback"].map((operation) => Metric.value(walletBy({ operation, result: "ok" }))),
  Metric.value(retriesBy({ operation: "bet" })),
  Metric.value(cashOutsBy({ result: "cashed_out" })),
  Metric.value(oddsBatches),
  Metric.value(oddsBatchLag),
  Metric.value(sampleErrors)
], { discard: true })
