import type { Theme } from "../schema/settings.ts"
import type { User } from "../schema/user.ts"

/**
 * The browser's storage, as SPEC section 3 lays it out: token, userData and
 * theme in local storage, signUpData in session storage. Plain functions, so
 * the first page reads the token and theme and keeps the session before the
 * Effect runtime loads; the `Storage` service (storage.ts) is these, as
 * effects, plus the decoding of what it reads back.
 */

export const KEYS = { token: "token", userData: "userData", theme: "theme", signUpData: "signUpData" } as const

/** Storage may be missing (private mode, tests) or full; the site must keep working. */
const safe = <A>(f: () => A, fallback: A): A => {
  try {
    return f()
  } catch {
    return fallback
  }
}

export const local = () => (typeof localStorage === "undefined" ? undefined : localStorage)
export const session = () => (typeof sessionStorage === "undefined" ? undefined : sessionStorage)

export const read = (store: () => globalThis.Storage | undefined, key: string) => safe(() => store()?.getItem(key) ?? null, null)
export const write = (store: () => globalThis.Storage | undefined, key: string, value: string | null) =>
  safe(() => (value === null ? store()?.removeItem(key) : store()?.setItem(key, value)), undefined)

export const readToken = () => read(local, KEYS.token) ?? read(session, KEYS.token) ?? undefined
export const readTheme = (): Theme => (read(local, KEYS.theme) === "light" ? "light" : "dark")

/** `remember: false` keeps the token for this browser session only. */
export const saveSession = (token: string, user: User, remember = true) => {
  write(remember ? local : session, KEYS.token, token)
  write(remember ? session : local, KEYS.token, null)
  write(local, KEYS.userData, JSON.stringify(user))
}

/** Keeps the token where the player chose to keep it. */
export const saveToken = (token: string) => write(read(session, KEYS.token) !== null ? session : local, KEYS.token, token)
export const saveUser = (user: User) => write(local, KEYS.userData, JSON.stringify(user))
/** HTTP 401: the stored user goes. */
export const clearUser = () => write(local, KEYS.userData, null)
/** Logout and meta code 401: user and token go. */
export const clearSession = () => {
  write(local, KEYS.userData, null)
  write(local, KEYS.token, null)
  write(session, KEYS.token, null)
}
export const saveTheme = (theme: Theme) => write(local, KEYS.theme, theme)
