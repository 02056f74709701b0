import { Effect, Logger } from "effect"
import { describe, expect, it } from "vitest"
import { isSecretName, replaceSecretsInText } from "../../src/domain/secrets.ts"
import { createRedactor } from "../../src/root/redact.ts"
import { REDACTED, redactLine } from "../../server/observability/logger.ts"

const LAUNCH = "https://play.khel.test/games/khel/dragon-tiger?token=q9Zx81LmPw0aB7TtYv2K&table=3#lobby"

describe("secrets inside text", () => {
  it("finds a secret by the parameter or key it travels under, and a bearer credential; leaves the rest", () => {
    const marked = (text: string) => replaceSecretsInText(text, (secret) => `<${secret.length}>`)
    expect(marked(LAUNCH)).toBe("https://play.khel.test/games/khel/dragon-tiger?token=<20>&table=3#lobby")
    expect(marked("/launch?game=7&access_token=abc.def-ghi")).toBe("/launch?game=7&access_token=<11>")
    expect(marked("login failed: password=Demo@1234, user=demo")).toBe("login failed: password=<9>, user=demo")
    expect(marked(`{"otp":"4821","mobile_no":"+919000000001"}`)).toBe(`{"otp":"<4>","mobile_no":"+919000000001"}`)
    expect(marked("Authorization: Bearer eyJhbGciOi.eyJzdWIi.c2ln")).toBe("Authorization: Bearer <24>")
    for (const plain of ["Passwords do not match", "Please enter amount", "type: deposit", "/event?sport=cricket&event=india-v-australia", "Min Deposit amount is 100"]) {
      expect(marked(plain)).toBe(plain)
    }
    expect(isSecretName("sig")).toBe(true)
    expect(isSecretName("table")).toBe(false)
  })

  it("redacts a casino launch URL in the event log as a stand-in of the same shape", () => {
    const redact = createRedactor()
    const out = redact({ type: "xstate.done.actor.launch", output: LAUNCH, note: "opened with Bearer q9Zx81LmPw0aB7TtYv2K" })
    expect(out.output).not.toContain("q9Zx81LmPw0aB7TtYv2K")
    expect(out.output).toMatch(/^https:\/\/play\.khel\.test\/games\/khel\/dragon-tiger\?token=[A-Za-z0-9]{20}&table=3#lobby$/)
    // The same secret gets the same stand-in wherever it appears.
    expect(out.note).toBe(`opened with Bearer ${/token=([^&]+)/.exec(out.output)![1]}`)
  })

  it("redacts the server's log lines: messages, annotations and causes", async () => {
    const lines: Array<string> = []
    const capture = Logger.formatJson.pipe(Logger.map(redactLine), Logger.map((line) => void lines.push(line)))
    await Effect.runPromise(
      Effect.logError("request failed", new Error(`GET ${LAUNCH} answered 500`)).pipe(
        Effect.annotateLogs({ url: LAUNCH, authorization: "Bearer q9Zx81LmPw0aB7TtYv2K" }),
        Effect.provide(Logger.layer([capture]))
      )
    )
    expect(lines).toHaveLength(1)
    expect(lines[0]).not.toContain("q9Zx81LmPw0aB7TtYv2K")
    expect(lines[0]).toContain(`token=${REDACTED}`)
    expect(JSON.parse(lines[0]!)).toMatchObject({ message: ["request failed", { name: "Error" }], annotations: { url: LAUNCH.replace("q9Zx81LmPw0aB7TtYv2K", REDACTED) } })
  })
})
