import { Context, Effect, Layer, Schema } from "effect"
import { appendFileSync, mkdirSync } from "node:fs"
import { join } from "node:path"
import { ServerConfig } from "../config.ts"

export type OtpPurpose = "signup" | "reset"

/** Where the console provider appends each message: `$DATA_DIR/sms-outbox.jsonl` (README tells newcomers to read it). */
export const smsOutboxPath = (dataDir: string) => join(dataDir, "sms-outbox.jsonl")

export class SmsConfigError extends Schema.TaggedError<SmsConfigError>()("SmsConfigError", { message: Schema.String }) {}

/**
 * Text messages to players. Providers plug in behind this interface; the
 * default `console` provider is for development and tests: it appends the
 * message to `$DATA_DIR/sms-outbox.jsonl` (and logs that it did, never the
 * code), and refuses to run in production.
 */
export class Sms extends Context.Service<Sms, {
  sendOtp(mobileNo: string, purpose: OtpPurpose, otp: string): Effect.Effect<void>
}>()("khel/Sms") {
  static readonly layer = Layer.effect(
    Sms,
    Effect.gen(function*() {
      const config = yield* ServerConfig
      if (config.smsProvider !== "console") {
        return yield* new SmsConfigError({ message: `Unknown SMS_PROVIDER "${config.smsProvider}". Available: console.` })
      }
      if (config.production) {
        return yield* new SmsConfigError({ message: "SMS_PROVIDER=console writes codes to a file and is refused when NODE_ENV=production." })
      }
      mkdirSync(config.dataDir, { recursive: true })
      const outbox = smsOutboxPath(config.dataDir)
      return Sms.of({
        sendOtp: (mobileNo, purpose, otp) =>
          Effect.gen(function*() {
            appendFileSync(outbox, `${JSON.stringify({ mobile_no: mobileNo, purpose, otp, at: new Date().toISOString() })}\n`)
            // The code is in the outbox only: a log is read by more people than a phone, and kept longer.
            yield* Effect.logInfo("sms written to the outbox (console provider)", { purpose, outbox })
          })
      })
    })
  )
}
