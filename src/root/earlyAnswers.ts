/**
 * A signed-in player's startup answers, asked for by the head script (src/root/headScript.ts) before the app's
 * JavaScript has arrived, and taken here by the app's own calls (src/root/startup.ts).
 */

/** The global the head script leaves them under: `{ token, answers: { [url]: Promise<Response> } }`. */
export const EARLY_ANSWERS = "khelEarlyAnswers"

interface EarlyAnswers {
  readonly token: string
  readonly answers: Record<string, Promise<Response> | undefined>
}

/**
 * The answer asked for early for this player at this address, once (a later call asks again), or none. One
 * asked with another token (the stored one was refused and cleared, or another player signed in) is never taken.
 */
export const takeEarlyAnswer = (url: string, token: string | undefined): Promise<Response> | undefined => {
  const early = (window as unknown as Record<string, EarlyAnswers | undefined>)[EARLY_ANSWERS]
  if (token === undefined || early?.token !== token) return undefined
  const answer = early.answers[url]
  delete early.answers[url]
  return answer
}
