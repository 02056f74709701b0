/**
 * The desk session's token, plain (no Effect): kept in local storage so every
 * desk tab of the browser shares one sign-in, apart from the player site's
 * token. Whoever is told when the server says the session has ended (any
 * 401) registers with `onSessionEnded` (the root actor).
 */
const KEY = "khel.desk.token"

export const readDeskToken = (): string | undefined => {
  try {
    return localStorage.getItem(KEY) ?? undefined
  } catch {
    return undefined
  }
}

export const writeDeskToken = (token: string | undefined) => {
  try {
    if (token === undefined) localStorage.removeItem(KEY)
    else localStorage.setItem(KEY, token)
  } catch {
    // Storage refused (private mode): the session lasts as long as the page.
  }
}

let ended: () => void = () => {}

export const onSessionEnded = (listener: () => void) => {
  ended = listener
}

export const sessionEnded = () => ended()
