import { Context, Effect, Layer, Schema } from "effect"
import type { Theme } from "../schema/settings.ts"
import { User } from "../schema/user.ts"
import * as browser from "./browserStorage.ts"
import { KEYS, local, read, session, write } from "./browserStorage.ts"

export const SignUpData = Schema.Struct({ mobileNo: Schema.String, purpose: Schema.optionalKey(Schema.Literals(["signup", "reset"])) })
export type SignUpData = typeof SignUpData.Type

const decodeUser = Schema.decodeUnknownOption(Schema.fromJsonString(User))
const decodeSignUp = Schema.decodeUnknownOption(Schema.fromJsonString(SignUpData))

/**
 * The browser's storage (browserStorage.ts) as a service: what it reads back
 * is decoded with the schemas.
 */
export class Storage extends Context.Service<Storage, {
  readonly token: Effect.Effect<string | undefined>
  readonly user: Effect.Effect<User | undefined>
  readonly theme: Effect.Effect<Theme>
  readonly signUpData: Effect.Effect<SignUpData | undefined>
  /** `remember: false` keeps the token for this browser session only. */
  saveSession(token: string, user: User, remember?: boolean): Effect.Effect<void>
  saveToken(token: string): Effect.Effect<void>
  saveUser(user: User): Effect.Effect<void>
  /** HTTP 401: the stored user goes. */
  readonly clearUser: Effect.Effect<void>
  /** Logout and meta code 401: user and token go. */
  readonly clearSession: Effect.Effect<void>
  saveTheme(theme: Theme): Effect.Effect<void>
  saveSignUpData(data: SignUpData): Effect.Effect<void>
  readonly clearSignUpData: Effect.Effect<void>
}>()("khel/Storage") {
  static readonly layer = Layer.succeed(Storage, {
    token: Effect.sync(browser.readToken),
    user: Effect.sync(() => {
      const raw = read(local, KEYS.userData)
      return raw === null ? undefined : decodeUser(raw).pipe((o) => (o._tag === "Some" ? o.value : undefined))
    }),
    theme: Effect.sync(browser.readTheme),
    signUpData: Effect.sync(() => {
      const raw = read(session, KEYS.signUpData)
      return raw === null ? undefined : decodeSignUp(raw).pipe((o) => (o._tag === "Some" ? o.value : undefined))
    }),
    saveSession: (token, user, remember) => Effect.sync(() => browser.saveSession(token, user, remember)),
    saveToken: (token) => Effect.sync(() => browser.saveToken(token)),
    saveUser: (user) => Effect.sync(() => browser.saveUser(user)),
    clearUser: Effect.sync(browser.clearUser),
    clearSession: Effect.sync(browser.clearSession),
    saveTheme: (theme) => Effect.sync(() => browser.saveTheme(theme)),
    saveSignUpData: (data) => Effect.sync(() => write(session, KEYS.signUpData, JSON.stringify(data))),
    clearSignUpData: Effect.sync(() => write(session, KEYS.signUpData, null))
  })
}
