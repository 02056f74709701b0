import { hash, verify } from "@node-rs/argon2"
import { Context, Effect, Layer } from "effect"
import { decoratedWord, SITE_WORDS } from "../../src/domain/validation.ts"

/** argon2id with the OWASP minimum: 19 MiB memory, 2 passes, 1 lane. */
const OPTIONS = { algorithm: 2, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const

/** zxcvbn's score from 0 to 4; below 2 a password falls to about a million guesses or fewer. */
export const MIN_PASSWORD_SCORE = 2

export const WEAK_PASSWORD =
  "This password is too common or too easy to guess. Choose another: a few words that do not belong together, or a longer mix of letters, digits and symbols."

/** The strength estimator and its dictionaries (about 2 MB), loaded on first use rather than at start. */
const loadEstimator = Effect.promise(async () => {
  const [{ ZxcvbnFactory }, common] = await Promise.all([import("@zxcvbn-ts/core"), import("@zxcvbn-ts/language-common")])
  return new ZxcvbnFactory({ dictionary: { ...common.dictionary }, graphs: common.adjacencyGraphs })
})

export class Passwords extends Context.Service<Passwords, {
  hash(password: string): Effect.Effect<string>
  /**
   * Checks a password against an account's hash, or, when there is no
   * account, against a decoy hash: the same argon2 work either way, so the
   * time of the answer does not reveal which accounts exist.
   */
  verify(hashed: string | undefined, password: string): Effect.Effect<boolean>
  /**
   * Whether a new password is too guessable: common passwords and their
   * variants (zxcvbn with its common-language dictionary), passwords built
   * from the site's name, the demo passwords' words or the account's own
   * name, username or phone number, and a weak word dressed with symbols
   * and digits (`decoratedWord`: `India@1234` is as weak as `India`).
   */
  isWeak(password: string, accountWords: ReadonlyArray<string>): Effect.Effect<boolean>
}>()("khel/Passwords") {
  static readonly layer = Layer.effect(
    Passwords,
    Effect.gen(function*() {
      const decoyHash = yield* Effect.promise(() => hash("decoy-password-not-used", OPTIONS))
      const estimator = yield* Effect.cached(loadEstimator)
      return Passwords.of({
        hash: (password) => Effect.promise(() => hash(password, OPTIONS)),
        verify: (hashed, password) =>
          Effect.promise(() => verify(hashed ?? decoyHash, password).catch(() => false)).pipe(Effect.map((ok) => ok && hashed !== undefined)),
        isWeak: (password, accountWords) =>
          Effect.map(estimator, (zxcvbn) => {
            const guessed = [...SITE_WORDS, ...accountWords.filter((word) => word.length >= 3)]
            const weak = (text: string) => zxcvbn.check(text, guessed).score < MIN_PASSWORD_SCORE
            const word = decoratedWord(password)
            return weak(password) || (word !== undefined && weak(word))
          })
      })
    })
  )
}
