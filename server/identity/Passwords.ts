import { hash, verify } from "@node-rs/argon2"
import { Context, Effect, Layer } from "effect"

/** argon2id with the OWASP minimum: 19 MiB memory, 2 passes, 1 lane. */
const OPTIONS = { algorithm: 2, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const

export class Passwords extends Context.Service<Passwords, {
  hash(password: string): Effect.Effect<string>
  verify(hashed: string, password: string): Effect.Effect<boolean>
  /** Spends the time of a verification when there is no account, so timing does not reveal which numbers are registered. */
  readonly decoy: Effect.Effect<void>
}>()("khel/Passwords") {
  static readonly layer = Layer.effect(
    Passwords,
    Effect.gen(function*() {
      const decoyHash = yield* Effect.promise(() => hash("decoy-password-not-used", OPTIONS))
      return Passwords.of({
        hash: (password) => Effect.promise(() => hash(password, OPTIONS)),
        verify: (hashed, password) => Effect.promise(() => verify(hashed, password).catch(() => false)),
        decoy: Effect.promise(() => verify(decoyHash, "x").catch(() => false)).pipe(Effect.asVoid)
      })
    })
  )
}
