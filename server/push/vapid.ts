import { Effect } from "effect"
import { readFileSync, rmSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import webpush from "web-push"
import type { ServerConfigShape } from "../config.ts"

export interface VapidKeys {
  readonly publicKey: string
  readonly privateKey: string
}

const isKeys = (value: unknown): value is VapidKeys =>
  typeof value === "object" && value !== null &&
  typeof (value as VapidKeys).publicKey === "string" && typeof (value as VapidKeys).privateKey === "string"

/** The pair kept in `file`, if there is one and it is a pair. */
const readStored = (file: string): VapidKeys | undefined => {
  try {
    const stored: unknown = JSON.parse(readFileSync(file, "utf8"))
    return isKeys(stored) ? { publicKey: stored.publicKey, privateKey: stored.privateKey } : undefined
  } catch {
    return undefined
  }
}

/**
 * The server's VAPID key pair: from the environment (VAPID_PUBLIC_KEY and
 * VAPID_PRIVATE_KEY); in development, made once at the first start and kept
 * in `$DATA_DIR/vapid.json` (readable by this user only), so subscriptions
 * outlive a restart. Production without keys has no push (and says so): keys
 * made on one server would not sign for the others.
 */
export const vapidKeys = (config: ServerConfigShape): Effect.Effect<VapidKeys | undefined> =>
  Effect.gen(function*() {
    if (config.push.vapid) return config.push.vapid
    if (config.production) {
      yield* Effect.logWarning("push notifications are off: set VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY (npx web-push generate-vapid-keys)")
      return undefined
    }
    const file = join(config.dataDir, "vapid.json")
    const stored = readStored(file)
    if (stored) return stored
    const keys = webpush.generateVAPIDKeys()
    const made = yield* Effect.sync(() => {
      try {
        // `wx`: a server sharing the folder that made its pair first keeps it, and this one reads it.
        writeFileSync(file, JSON.stringify(keys), { mode: 0o600, flag: "wx" })
        return true
      } catch {
        return false
      }
    })
    if (made) {
      yield* Effect.logInfo("VAPID keys made for development", { file })
      return keys
    }
    const theirs = readStored(file)
    if (theirs) return theirs
    yield* Effect.logWarning("vapid.json is not a key pair: making a new one (earlier subscriptions stop working)")
    rmSync(file, { force: true })
    writeFileSync(file, JSON.stringify(keys), { mode: 0o600 })
    return keys
  })
