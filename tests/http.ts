import { existsSync, readFileSync } from "node:fs"
import { join } from "node:path"

/** JSON request returning status, headers and parsed body. */
export const request = async (base: string, path: string, init: RequestInit & { json?: unknown; token?: string } = {}) => {
  const headers = new Headers(init.headers)
  if (init.json !== undefined) headers.set("content-type", "application/json")
  if (init.token) headers.set("authorization", `Bearer ${init.token}`)
  const response = await fetch(`${base}${path}`, {
    ...init,
    headers,
    ...(init.json !== undefined ? { body: JSON.stringify(init.json) } : {})
  })
  const text = await response.text()
  let body: any
  try {
    body = JSON.parse(text)
  } catch {
    body = text
  }
  return { status: response.status, headers: response.headers, body }
}

/** The codes the console SMS provider wrote for a number, newest last. */
export const outboxCodes = (dataDir: string, mobileNo: string, purpose?: "signup" | "reset") => {
  const path = join(dataDir, "sms-outbox.jsonl")
  if (!existsSync(path)) return []
  return readFileSync(path, "utf8")
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line) as { mobile_no: string; purpose: string; otp: string })
    .filter((entry) => entry.mobile_no === mobileNo && (!purpose || entry.purpose === purpose))
    .map((entry) => entry.otp)
}
