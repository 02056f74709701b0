import type { PushMessage } from "../schema/push.ts"
import { formatRupees } from "./money.ts"

/**
 * Web Push: what a player is told, in their words, and where the server may
 * send it. A notification is a title, a line and the page a tap opens; its
 * tag makes a second one of the same thing replace the first on the device.
 */

/** What a push carries (the contract's `PushMessage`). */
export type Notice = PushMessage

/** How long before a match a player who bet on it is reminded. */
export const REMINDER_MINUTES = 15

export const depositApproved = (deposit: { readonly id: string; readonly rupees: number }): Notice => ({
  kind: "deposit.approved",
  title: "Deposit approved",
  body: `${formatRupees(deposit.rupees)} is in your balance.`,
  url: "/deposit",
  tag: `deposit:${deposit.id}`
})

export const withdrawalPaid = (withdrawal: { readonly id: string; readonly rupees: number }): Notice => ({
  kind: "withdrawal.paid",
  title: "Withdrawal paid",
  body: `${formatRupees(withdrawal.rupees)} is on its way to your account.`,
  url: "/withdrawal",
  tag: `withdrawal:${withdrawal.id}`
})

export const betWon = (result: { readonly marketId: string; readonly event: string; readonly market: string; readonly rupees: number }): Notice => ({
  kind: "bet.won",
  title: "Your bet won",
  body: `${result.event} · ${result.market}: you won ${formatRupees(result.rupees)}.`,
  url: "/profit-loss",
  tag: `won:${result.marketId}`
})

export const matchStarting = (event: { readonly id: string; readonly name: string; readonly url: string }): Notice => ({
  kind: "match.starting",
  title: `${event.name} starts in ${REMINDER_MINUTES} minutes`,
  body: "You have a bet on this match. Prices are live now.",
  url: event.url,
  tag: `starts:${event.id}`
})

/**
 * The push services browsers subscribe with (Chrome and Android, Firefox,
 * Edge, Safari and iOS): a subscription may only name one of them, or the
 * server would POST wherever a player pointed it. `*.` matches any subdomain.
 */
export const PUSH_SERVICES: ReadonlyArray<string> = [
  "https://fcm.googleapis.com",
  "https://android.googleapis.com",
  "https://updates.push.services.mozilla.com",
  "https://*.notify.windows.com",
  "https://web.push.apple.com",
  "https://*.push.apple.com"
]

/** Whether `endpoint` is a URL of one of `services` (origins, `https://*.host` for any subdomain of host). */
export const isPushService = (endpoint: string, services: ReadonlyArray<string>) => {
  let url: URL
  try {
    url = new URL(endpoint)
  } catch {
    return false
  }
  if (url.username !== "" || url.password !== "") return false
  return services.some((service) => {
    const wildcard = /^(https?:\/\/)\*\.(.+)$/.exec(service)
    if (!wildcard) return url.origin === service
    return url.protocol === wildcard[1]!.slice(0, -2) && url.port === "" && url.hostname.endsWith(`.${wildcard[2]}`)
  })
}
