import { expect } from "@playwright/test"
import sharp from "sharp"
import type { FlowWorld } from "../adapter.ts"
import { apiLogin, createPlayer } from "../../support.ts"

/**
 * What the money adapters (deposit, depositForm, withdrawal, payoutAccounts,
 * bonus) share: the test's player, made once and kept in the world (an
 * `arrange` may need it before `start`), the player's and the operator's calls
 * through the real API, and the screen's toasts and dialog.
 */

/** The test's player, made on first use: its token, username and national number are in `world.data`. */
export const player = async (world: FlowWorld, name = "Money Player") => {
  if (!world.data.token) {
    const made = await createPlayer(world.request, name)
    Object.assign(world.data, { token: made.token, username: made.user.username, national: made.national })
  }
  return world.data.token!
}

/** The player's own call to the API (an Idempotency-Key on every write); fails the test unless the server says 200. */
export const asPlayer = async (world: FlowWorld, method: "get" | "post" | "put", path: string, data?: unknown) => {
  const token = await player(world)
  const headers = { authorization: `Bearer ${token}`, ...(method === "get" ? {} : { "idempotency-key": `flow-${crypto.randomUUID()}` }) }
  const res = await world.request[method](path, { headers, ...(data === undefined ? {} : { data }) })
  expect(res.status(), `${method.toUpperCase()} ${path}: ${await res.text()}`).toBe(200)
  return (await res.json()).data
}

/** The operator's call to the admin API. */
export const asOperator = async (world: FlowWorld, method: "post" | "put", path: string, data: unknown = {}) => {
  const admin = await apiLogin(world.request, "admin")
  const res = await world.request[method](path, { headers: { authorization: `Bearer ${admin.token}`, "idempotency-key": `flow-${crypto.randomUUID()}` }, data })
  expect(res.status(), `${method.toUpperCase()} ${path}: ${await res.text()}`).toBe(200)
  return (await res.json()).data
}

/** The operator credits the player's main balance (rupees). */
export const credit = async (world: FlowWorld, amount: number) => {
  await player(world)
  await asOperator(world, "post", "/api/v1/admin/credit", { user: world.data.username, amount })
}

/** The operator's first UPI account players pay into. */
export const depositAccount = async (world: FlowWorld): Promise<{ _id: string; type: "upi" | "bank" }> => {
  const accounts: Array<{ _id: string; type: "upi" | "bank" }> = await asPlayer(world, "get", "/api/v1/admin-account-details")
  return accounts.find((a) => a.type === "upi")!
}

/** A deposit request the player files through the API: with a reference, or with `screenshot` only. */
export const fileDeposit = async (world: FlowWorld, amount: number, proof: { txnRef: string } | { screenshot: string }) => {
  const account = await depositAccount(world)
  const body = "txnRef" in proof ? { txnRef: proof.txnRef } : { txnRef: "", baseImage: proof.screenshot }
  return asPlayer(world, "post", "/api/v1/admin-deposit-request", { accountId: account._id, type: account.type, amount, ...body }) as Promise<{ _id: string }>
}

/** A small real PNG: a payment screenshot. */
export const screenshotPng = () => sharp({ create: { width: 120, height: 80, channels: 3, background: { r: 30, g: 140, b: 90 } } }).png().toBuffer()

export const dataUrl = (png: Buffer) => `data:image/png;base64,${png.toString("base64")}`

/**
 * The network drops the requests of one method to `glob` (the browser aborts them): a call's `Unreachable` failure,
 * while the page's other calls to the same address (a list beside a write) still reach the real server.
 */
export const dropped = (method: string, glob: string) => async ({ page }: FlowWorld): Promise<void> => {
  await page.route(glob, (route) => (route.request().method() === method ? route.abort("internetdisconnected") : route.fallback()))
}

/** The network is back for `glob`. */
export const restored = async ({ page }: FlowWorld, glob: string) => page.unroute(glob)

export const toast = ({ page }: FlowWorld, level: "success" | "warning" | "error", text?: string | RegExp) => {
  const toasts = page.getByTestId(`toast-${level}`)
  return text === undefined ? toasts.last() : toasts.filter({ hasText: text }).last()
}

export const dialog = ({ page }: FlowWorld) => page.getByRole("dialog")

/** A date range a week before today's, searched for in the page's range picker. */
export const searchEarlierRange = async ({ page }: FlowWorld) => {
  const range = page.getByRole("form", { name: "Date range" })
  const from = range.getByLabel("From")
  const start = new Date(`${await from.inputValue()}T00:00:00Z`)
  start.setUTCDate(start.getUTCDate() - 7)
  await from.fill(start.toISOString().slice(0, 10))
  await range.getByRole("button", { name: "Search" }).click()
}

/** The walk's stand-in for a date range (no state depends on the dates). */
export const RANGE = { start_date: "2026-01-01", end_date: "2026-01-07" }
