import { Effect } from "effect"
import { createHash } from "node:crypto"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Simulation } from "../../server/odds/layer.ts"
import { matchDuration } from "../../server/odds/simulation.ts"
import { catalogue, eventsOf } from "./betting-support.ts"
import { request, runAdmin, startServer, tempDir, type TestServer } from "./helpers.ts"

/**
 * Results no one can predict: each event's draws come from a secret the
 * server made and keeps, committed to before the event starts and revealed
 * once it has settled; the secret is rotated with `npm run admin --
 * rotate-feed-secret`. The simulator's clock is off: the test runs its
 * lifecycle step itself.
 */
process.env.ODDS_SIMULATOR = "off"

/** A step that runs `npm run admin` (on PGlite, around a restart of the server) has a generous deadline of its own. */
const STEP_TIMEOUT = 300_000

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex")

const fairness = async (server: TestServer, eventId: string) => (await request(server.url, `/api/v1/event-fairness?event_id=${eventId}`)).body

// Held here, not by useServer: on PGlite the server stops and starts again around each CLI command.
const dataDir = tempDir("fairness")
let server: TestServer
const others: Array<TestServer> = []

/** Stops the server where the CLI needs the data folder to itself (PGlite), runs the command, starts it again. */
const admin = async (args: ReadonlyArray<string>) => {
  if (server.engine === "pglite") await server.close()
  const result = await runAdmin(server, args)
  if (server.engine === "pglite") server = await startServer({ dataDir })
  return result
}

const secrets = () => server.sql((sql) => sql<{ id: number; secret: string | null; retiredAt: Date | null }>`SELECT id, secret, retired_at FROM feed_secrets ORDER BY id`)
const secretOf = (eventId: string) => server.sql((sql) => sql<{ secretId: number }>`SELECT secret_id FROM event_draws WHERE event_id = ${eventId}`).then((rows) => rows[0]?.secretId)

beforeAll(async () => {
  server = await startServer({ dataDir })
})
afterAll(async () => {
  for (const other of others) await other.close()
  await server?.close()
})

describe("an event's draws", () => {
  let eventId = ""
  let commitment = ""

  it("are committed to before the event starts, and nothing public shows the secret or a seed", async () => {
    const event = eventsOf(await catalogue(server), "cricket", false)[0]!
    eventId = event._id
    const body = await fairness(server, eventId)
    expect(body.meta.code).toBe(200)
    expect(body.data).toMatchObject({ eventId, seed: null, revealedAt: null })
    commitment = body.data.commitment
    expect(commitment).toMatch(/^[0-9a-f]{64}$/)
    const missing = await fairness(server, "no-such-event")
    expect(missing.meta).toMatchObject({ code: 404, error: "NotFound" })
    expect(missing.data).toBeNull()

    const [first] = await secrets()
    expect(first!.secret).toMatch(/^[0-9a-f]{64}$/)
    const published = [
      await request(server.url, "/api/v1/get-sports-data"),
      await request(server.url, `/api/v1/event-odds?event_id=${eventId}`),
      await request(server.url, `/api/v1/event-fairness?event_id=${eventId}`)
    ].map((res) => JSON.stringify(res.body))
    for (const text of published) expect(text).not.toContain(first!.secret!)
  })

  it("are the same on every server of the database and after a restart", async () => {
    if (server.engine === "postgres") {
      const other = await startServer({ dataDir: tempDir("fairness-b"), databaseUrl: server.databaseUrl, seedDemo: false })
      others.push(other)
      expect((await fairness(other, eventId)).data.commitment).toBe(commitment)
    } else {
      await server.close()
      server = await startServer({ dataDir })
    }
    expect((await fairness(server, eventId)).data.commitment).toBe(commitment)
  })

  it("keep their commitment when the secret is rotated; events made afterwards are drawn from the new secret", async () => {
    const rotated = await admin(["rotate-feed-secret"])
    expect(rotated.code, rotated.stderr).toBe(0)
    expect(rotated.stdout).toContain("feed secret 2 now draws every new event; 0 retired secrets erased")
    const list = await secrets()
    expect(list.map((s) => [s.id, s.retiredAt !== null])).toEqual([[1, true], [2, false]])
    expect((await fairness(server, eventId)).data.commitment).toBe(commitment)
    expect(await secretOf(eventId)).toBe(1)

    // The event runs its course and settles: its seed is published, and its SHA-256 is the commitment.
    await server.sql((sql) => sql`UPDATE events SET starts_at = ${new Date(Date.now() - matchDuration("4") - 60_000)}, status = 'live' WHERE id = ${eventId}`)
    const step = await server.run(Effect.gen(function*() {
      const simulator = (yield* (yield* Simulation).current)!
      yield* simulator.load(Date.now())
      return yield* simulator.lifecycle(Date.now())
    }))
    expect(step.finished).toBeGreaterThanOrEqual(1)
    const settled = await fairness(server, eventId)
    expect(settled.data).toMatchObject({ eventId, commitment, seed: expect.stringMatching(/^[0-9a-f]{64}$/), revealedAt: expect.any(String) })
    expect(sha256(settled.data.seed)).toBe(commitment)

    // Its successor, made after the rotation, is drawn from the new secret.
    const [next] = await server.sql((sql) => sql<{ id: string }>`
      SELECT e.id FROM events e JOIN events old ON old.id = ${eventId} WHERE e.name = old.name AND e.status = 'scheduled'
    `)
    expect(await secretOf(next!.id)).toBe(2)
  }, STEP_TIMEOUT)

  it("erase a retired secret once every event drawn from it has revealed its seed", async () => {
    // An hour after the rotation, with every event of the old secret over (cancelled here, or settled), it goes.
    const pending = await server.sql((sql) => sql<{ eventId: string }>`SELECT event_id FROM event_draws WHERE secret_id = 1 AND seed IS NULL ORDER BY event_id LIMIT 1`)
    const cancelled = pending[0]!.eventId
    const promised = (await fairness(server, cancelled)).data.commitment
    await server.sql((sql) => sql`UPDATE feed_secrets SET retired_at = retired_at - interval '2 hours' WHERE id = 1`)
    const early = await admin(["rotate-feed-secret"])
    expect(early.stdout).toContain("feed secret 3 now draws every new event; 0 retired secrets erased")
    await server.sql((sql) => sql`
      UPDATE events e SET status = 'cancelled' FROM event_draws d WHERE d.event_id = e.id AND d.secret_id = 1 AND e.status <> 'finished'
    `)
    const late = await admin(["rotate-feed-secret"])
    expect(late.stdout).toContain("feed secret 4 now draws every new event; 1 retired secret erased")
    expect((await secrets())[0]).toMatchObject({ id: 1, secret: null })
    // What it drew stays verifiable: the seeds were revealed before it went.
    const after = await fairness(server, cancelled)
    expect(after.data.commitment).toBe(promised)
    expect(sha256(after.data.seed)).toBe(promised)
  }, STEP_TIMEOUT)
})
