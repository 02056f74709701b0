import { expect } from "vitest"
import { request, type TestServer } from "./helpers.ts"

/** The server's test clock (TEST_CLOCK on): read it, freeze or release it, move it forward. */
export const clock = async (server: TestServer, change?: { seconds?: number; frozen?: boolean }) => {
  const res = change
    ? await request(server.url, "/api/v1/test/clock", { method: "POST", json: change })
    : await request(server.url, "/api/v1/test/clock")
  expect(res.status, JSON.stringify(res.body)).toBe(200)
  return { now: new Date(res.body.data.now as string), frozen: res.body.data.frozen as boolean }
}

export const HOUR = 3600
export const DAY = 24 * HOUR

/** Moves the (frozen) clock forward by whole seconds or a part of one. */
export const advance = (server: TestServer, seconds: number) => clock(server, { seconds })

export interface LimitView {
  kind: "deposit" | "loss"
  period: "day" | "week" | "month"
  amount: number | null
  inForceSince: string | null
  used: number
  remaining: number | null
  resetsAt: string | null
  pending: { amount: number | null; requestedAt: string; confirmableAt: string } | null
}

export const protectionOf = async (server: TestServer, token: string) => {
  const res = await request(server.url, "/api/v1/protection", { token })
  expect(res.status, JSON.stringify(res.body)).toBe(200)
  return res.body.data as {
    serverTime: string
    limits: Array<LimitView>
    realityCheck: { minutes: number; sessionStartedAt: string; elapsedSeconds: number; netResult: number; nextAt: string | null; due: boolean }
    timeOut: { startedAt: string; until: string } | null
    selfExclusion: { startedAt: string; until: string; returnRequestedAt: string | null; returnsAt: string | null } | null
    closed: { reason: string; until: string | null; message: string } | null
  }
}

export const limitOf = (state: { limits: Array<LimitView> }, kind: LimitView["kind"], period: LimitView["period"]) =>
  state.limits.find((limit) => limit.kind === kind && limit.period === period)!

export const setLimit = (server: TestServer, token: string, kind: LimitView["kind"], period: LimitView["period"], amount: number | null) =>
  request(server.url, "/api/v1/protection/limits", { method: "PUT", token, json: { kind, period, amount } })

export const confirmLimit = (server: TestServer, token: string, kind: LimitView["kind"], period: LimitView["period"]) =>
  request(server.url, "/api/v1/protection/limits/confirm", { method: "POST", token, json: { kind, period } })

/** A refusal as the envelope carries it. */
export const expectRefused = (res: { status: number; body: any }, status: number, reason: string, message?: string | RegExp) => {
  expect(res.status, JSON.stringify(res.body)).toBe(status)
  expect(res.body.meta).toMatchObject({ code: status, error: reason })
  expect(res.body.data).toBeNull()
  if (message !== undefined) expect(res.body.meta.message).toMatch(message)
}

export const later = (date: Date | string, seconds: number) => new Date(new Date(date).getTime() + seconds * 1000)

/** The database's own words when it refuses a statement (a trigger's RAISE), found down the error's causes. */
export const refusalOf = async (attempt: Promise<unknown>) => {
  try {
    await attempt
  } catch (error) {
    const messages: Array<string> = []
    const seen = new Set<unknown>()
    const walk = (value: unknown) => {
      if (!value || typeof value !== "object" || seen.has(value)) return
      seen.add(value)
      const { message, cause, reason } = value as { message?: unknown; cause?: unknown; reason?: unknown }
      if (typeof message === "string") messages.push(message)
      walk(cause)
      walk(reason)
    }
    walk(error)
    return messages.join(" | ")
  }
  throw new Error("the database accepted the statement")
}
