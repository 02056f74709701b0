import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { connectSocket as connect, creditMain, signUpPlayer, startServer, tempDir, type TestServer } from "./helpers.ts"

/** Several servers on one PostgreSQL: a change handled by one reaches the player's socket on another. */
describe.runIf(process.env.DATABASE_URL)("user events across servers", () => {
  let a: TestServer
  let b: TestServer
  beforeAll(async () => {
    a = await startServer()
    b = await startServer({ databaseUrl: a.databaseUrl, dataDir: tempDir("second"), seedDemo: false })
  })
  afterAll(async () => {
    await b?.close()
    await a?.close()
  })

  it("delivers the user's event to their socket on another server, and to nobody else", async () => {
    const player = await signUpPlayer(a)
    const other = await signUpPlayer(a)
    // Connected means joined: the server puts a socket in its rooms before it acknowledges the connection.
    const mine = await connect(a.url, player.token)
    const theirs = await connect(a.url, other.token)
    const heard: Array<string> = []
    const arrived = new Promise<void>((resolve) => mine.on(player.user.id, (payload: { reason: string }) => {
      heard.push(`mine:${payload.reason}`)
      resolve()
    }))
    theirs.on(player.user.id, () => heard.push("theirs"))
    const theirOwn = new Promise<void>((resolve) => theirs.on(other.user.id, () => resolve()))
    const deposit = (userId: string) => creditMain(b, userId, 250_00, "credited on the second server")
    await deposit(player.user.id)
    await arrived
    // Events travel one channel in order: once the other player hears their own, a stray copy of ours would have come first.
    await deposit(other.user.id)
    await theirOwn
    expect(heard).toEqual(["mine:deposit"])
    mine.close()
    theirs.close()
  })
})
