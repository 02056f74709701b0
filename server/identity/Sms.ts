import { Context, Effect, Layer, Schema } from "effect"
import { appendFileSync, mkdirSync } from "node:fs"
import { join } from "node:path"
import { formatPhone } from "../../src/domain/phone.ts"
import { ServerConfig } from "../config.ts"

export type OtpPurpose = "signup" | "reset"

/** Where the console provider appends each message: `$DATA_DIR/sms-outbox.jsonl` (README tells newcomers to read it). */
export const smsOutboxPath = (dataDir: string) => join(dataDir, "sms-outbox.jsonl")

export class SmsConfigError extends Schema.TaggedError<SmsConfigError>()("SmsConfigError", { message: Schema.String }) {}

/**
 * Text messages to players. Providers plug in behind this interface; the
 * default `console` provider is for development and tests: it logs the
 * message and appends it to `$DATA_DIR/sms-outbox.jsonl`, and refuses to run
 * in production.
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
            const text = purpose === "signup"
              ? `${otp} is your Khel verification code. It expires in 5 minutes.`
              : `${otp} is your Khel password reset code. It expires in 5 minutes. If you did not ask for it, ignore this message.`
            appendFileSync(outbox, `${JSON.stringify({ mobile_no: mobileNo, purpose, otp, at: new Date().toISOString() })}\n`)
            yield* Effect.logInfo("sms sent (console provider)", { to: formatPhone(mobileNo), purpose, text })
          })
      })
    })
  )
}
