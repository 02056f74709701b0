import type { Socket } from "socket.io-client"
import { describe, expect, it } from "vitest"
import { connectSocket as connect, creditMain, request, signUpPlayer, tempDir, useServer } from "./helpers.ts"

/** Several servers on one PostgreSQL: a change handled by one reaches the player's socket on another. */
describe.runIf(process.env.DATABASE_URL)("user events across servers", () => {
  const a = useServer()
  const b = useServer({ config: () => ({ databaseUrl: a.databaseUrl, dataDir: tempDir("second"), seedDemo: false }) })

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

  it("disconnects a session's socket on another server when it logs out, and the player's others on a password change", async () => {
    const player = await signUpPlayer(a)
    const laptop = (await request(a.url, "/identity/user/login", { method: "POST", json: { username: player.user.username, password: player.password } })).body.meta.token as string
    const gone = (socket: Socket) => new Promise<string>((resolve) => socket.on("disconnect", (reason) => resolve(reason)))
    // Both sockets live on the second server; the session ends through the first.
    const phoneSocket = await connect(b.url, player.token)
    const laptopSocket = await connect(b.url, laptop)
    const phoneGone = gone(phoneSocket)
    expect((await request(a.url, "/identity/user/logout", { method: "POST", token: player.token, json: {} })).status).toBe(200)
    expect(await phoneGone).toBe("io server disconnect")
    // The other session's socket stays, and still hears the player's events.
    const heard = new Promise<string>((resolve) => laptopSocket.on(player.user.id, (payload: { reason: string }) => resolve(payload.reason)))
    await creditMain(a, player.user.id, 100_00, "after the phone logged out")
    expect(await heard).toBe("deposit")
    expect(laptopSocket.connected).toBe(true)
    const laptopGone = gone(laptopSocket)
    const changed = await request(a.url, "/identity/user/change-password", {
      method: "POST",
      token: laptop,
      json: { old_password: player.password, password: "Monsoon-Tiffin-43", confirm_password: "Monsoon-Tiffin-43" }
    })
    expect(changed.status).toBe(200)
    expect(await laptopGone).toBe("io server disconnect")
  })

  it("disconnects the player's sockets on every server when they self-exclude", async () => {
    const player = await signUpPlayer(a)
    const laptop = (await request(a.url, "/identity/user/login", { method: "POST", json: { username: player.user.username, password: player.password } })).body.meta.token as string
    const sockets = [await connect(a.url, player.token), await connect(b.url, laptop)]
    const gone = sockets.map((socket) => new Promise<string>((resolve) => socket.on("disconnect", (reason) => resolve(reason))))
    expect((await request(a.url, "/api/v1/protection/self-exclusion", { method: "POST", token: player.token, json: { months: 6 } })).status).toBe(200)
    expect(await Promise.all(gone)).toEqual(["io server disconnect", "io server disconnect"])
  })
})
