import { Deferred, Duration, Effect, type Scope } from "effect"
import pg from "pg"
import type { LeaderConnection } from "./BookStore.ts"

/** The advisory lock of the odds leadership (advisory locks are per database). */
const LOCK_KEY = 4242017
/** A candidate tries for the lock this often. */
const CAMPAIGN_EVERY = Duration.millis(500)
/** The leader checks its connection this often, and steps down when it does not answer in time. */
const HEARTBEAT_EVERY = Duration.seconds(1)
const HEARTBEAT_TIMEOUT = Duration.seconds(3)

/** Why a leadership ended: the lock's connection failed (or stopped answering). */
export class LeadershipLost extends Error {}

/**
 * A connection of its own for the lock: keepalives on both ends, so a
 * leader that vanishes from the network lets go of the lock within seconds
 * (PostgreSQL drops the session, and with it the lock), and so does a
 * candidate.
 */
const connect = (url: string, name: string) =>
  Effect.acquireRelease(
    Effect.tryPromise({
      try: async () => {
        const client = new pg.Client({ connectionString: url, application_name: name, keepAlive: true, keepAliveInitialDelayMillis: 1000 })
        // An error on an idle client is an event: without a listener it would end the process.
        client.on("error", () => undefined)
        await client.connect()
        await client.query("SET tcp_keepalives_idle = 5; SET tcp_keepalives_interval = 1; SET tcp_keepalives_count = 3")
        return client
      },
      catch: (error) => new LeadershipLost(`cannot reach the database: ${error instanceof Error ? error.message : String(error)}`)
    }),
    (client) => Effect.promise(() => client.end().catch(() => undefined))
  )

/**
 * Runs for good: campaigns for the odds leadership on a dedicated connection
 * (`pg_try_advisory_lock`, every 500 ms) and, once it holds the lock, runs
 * `lead` with that connection until the connection fails (a heartbeat every
 * second, three seconds to answer) or the scope closes. Closing the
 * connection releases the lock; another server's next try takes it.
 * `following` is called each time this server is found not to lead.
 */
export const campaign = <E>(
  url: string,
  name: string,
  lead: (connection: LeaderConnection) => Effect.Effect<unknown, E, Scope.Scope>,
  following: Effect.Effect<void>
) =>
  Effect.scoped(Effect.gen(function*() {
    const client = yield* connect(url, name)
    const lost = yield* Deferred.make<void, LeadershipLost>()
    client.on("error", (error) => Deferred.doneUnsafe(lost, Effect.fail(new LeadershipLost(error.message))))
    client.on("end", () => Deferred.doneUnsafe(lost, Effect.fail(new LeadershipLost("the connection ended"))))
    const tryLock = Effect.tryPromise({
      try: () => client.query("SELECT pg_try_advisory_lock($1) AS held", [LOCK_KEY]),
      catch: (error) => new LeadershipLost(String(error))
    }).pipe(Effect.map(({ rows }) => rows[0]?.held === true))
    let reported = false
    while (!(yield* tryLock)) {
      if (!reported) yield* following
      reported = true
      yield* Effect.sleep(CAMPAIGN_EVERY)
    }
    const heartbeat = Effect.tryPromise({ try: () => client.query("SELECT 1"), catch: (error) => new LeadershipLost(String(error)) }).pipe(
      Effect.timeoutOrElse({ duration: HEARTBEAT_TIMEOUT, orElse: () => Effect.fail(new LeadershipLost("the database stopped answering")) }),
      Effect.andThen(Effect.sleep(HEARTBEAT_EVERY)),
      Effect.forever,
      Effect.catch((error) => Deferred.fail(lost, error))
    )
    yield* Effect.forkScoped(heartbeat)
    const connection: LeaderConnection = { query: (text, values) => client.query(text, values as Array<unknown>) }
    yield* Effect.raceFirst(Effect.scoped(lead(connection)), Deferred.await(lost))
  }))
