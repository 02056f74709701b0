import { Context, Effect, Layer, Schema } from "effect"
import type { Theme } from "../schema/settings.ts"
import { User } from "../schema/user.ts"

export const SignUpData = Schema.Struct({ mobileNo: Schema.String, purpose: Schema.optionalKey(Schema.Literals(["signup", "reset"])) })
export type SignUpData = typeof SignUpData.Type

const KEYS = { token: "token", userData: "userData", theme: "theme", signUpData: "signUpData" } as const

const decodeUser = Schema.decodeUnknownOption(Schema.fromJsonString(User))
const decodeSignUp = Schema.decodeUnknownOption(Schema.fromJsonString(SignUpData))

/** Storage may be missing (private mode, tests) or full; the site must keep working. */
const safe = <A>(f: () => A, fallback: A): A => {
  try {
    return f()
  } catch {
    return fallback
  }
}

const local = () => (typeof localStorage === "undefined" ? undefined : localStorage)
const session = () => (typeof sessionStorage === "undefined" ? undefined : sessionStorage)

const read = (store: () => globalThis.Storage | undefined, key: string) => safe(() => store()?.getItem(key) ?? null, null)
const write = (store: () => globalThis.Storage | undefined, key: string, value: string | null) =>
  safe(() => (value === null ? store()?.removeItem(key) : store()?.setItem(key, value)), undefined)

/**
 * The browser's storage, as SPEC section 3 lays it out: token, userData and
 * theme in local storage, signUpData in session storage.
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
    token: Effect.sync(() => read(local, KEYS.token) ?? read(session, KEYS.token) ?? undefined),
    user: Effect.sync(() => {
      const raw = read(local, KEYS.userData)
      return raw === null ? undefined : decodeUser(raw).pipe((o) => (o._tag === "Some" ? o.value : undefined))
    }),
    theme: Effect.sync(() => (read(local, KEYS.theme) === "light" ? "light" : "dark")),
    signUpData: Effect.sync(() => {
      const raw = read(session, KEYS.signUpData)
      return raw === null ? undefined : decodeSignUp(raw).pipe((o) => (o._tag === "Some" ? o.value : undefined))
    }),
    saveSession: (token, user, remember = true) =>
      Effect.sync(() => {
        write(remember ? local : session, KEYS.token, token)
        write(remember ? session : local, KEYS.token, null)
        write(local, KEYS.userData, JSON.stringify(user))
      }),
    saveToken: (token) =>
      Effect.sync(() => {
        // Keep the token where the player chose to keep it.
        write(read(session, KEYS.token) !== null ? session : local, KEYS.token, token)
      }),
    saveUser: (user) => Effect.sync(() => write(local, KEYS.userData, JSON.stringify(user))),
    clearUser: Effect.sync(() => write(local, KEYS.userData, null)),
    clearSession: Effect.sync(() => {
      write(local, KEYS.userData, null)
      write(local, KEYS.token, null)
      write(session, KEYS.token, null)
    }),
    saveTheme: (theme) => Effect.sync(() => write(local, KEYS.theme, theme)),
    saveSignUpData: (data) => Effect.sync(() => write(session, KEYS.signUpData, JSON.stringify(data))),
    clearSignUpData: Effect.sync(() => write(session, KEYS.signUpData, null))
  })
}
