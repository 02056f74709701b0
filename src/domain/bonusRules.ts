/**
 * The bonus and referral rules the operator sets on the desk's Settings
 * (docs/backoffice.md): the welcome offer on a player's first approved
 * deposit, and the reward their referrer earns from it. The server grants by
 * the rules it has at the grant (a bonus keeps what it was granted with); the
 * desk checks them before sending; the player site states them.
 * Caps are rupees, as on the wire (src/domain/money.ts turns them to paise).
 */
import { formatRupees, toPaise } from "./money.ts"

/** What a player is told of an offer: the share of the deposit, its cap, the wagering. */
// Types, not interfaces: the desk sends them as JSON.
export type BonusTerms = {
  readonly percent: number
  readonly cap: number
  /** How many times the amount (the bonus, or the referred deposit) is wagered first. */
  readonly wagerTimes: number
}

export type WelcomeRule = BonusTerms & {
  readonly code: string
  readonly title: string
}

export type BonusRules = {
  readonly welcome: WelcomeRule
  readonly referral: BonusTerms
}

/** The rules until the operator changes them (migration 0131 stores them). */
export const DEFAULT_BONUS_RULES: BonusRules = {
  welcome: { code: "WELCOME100", title: "100% welcome bonus", percent: 100, cap: 10_000, wagerTimes: 5 },
  referral: { percent: 10, cap: 1_000, wagerTimes: 1 }
}

export const MAX_CODE = 32
export const MAX_BONUS_TITLE = 60
/** Past these a rule is a typing mistake, not an offer. */
export const MAX_PERCENT = { welcome: 500, referral: 100 } as const
export const MAX_CAP = 10_00_000
export const MAX_WAGER_TIMES = 50

const CODE = /^[A-Z0-9_-]+$/

/** The share of `paise`, at most the cap: what a rule grants on a deposit. */
const grant = (terms: BonusTerms, paise: number) => Math.min(Math.floor((paise * terms.percent) / 100), toPaise(terms.cap) ?? 0)

/** The welcome bonus on a first deposit of `depositPaise`, and the wagering it asks (paise). */
export const welcomeGrant = (rule: WelcomeRule, depositPaise: number) => {
  const amountPaise = grant(rule, depositPaise)
  return { amountPaise, wageringPaise: amountPaise * rule.wagerTimes }
}

/** The referrer's reward for a referred player's first deposit, and the play it waits for (paise). */
export const referralGrant = (rule: BonusTerms, depositPaise: number) => ({ rewardPaise: grant(rule, depositPaise), wageringPaise: depositPaise * rule.wagerTimes })

const termsProblem = (terms: BonusTerms, what: "welcome" | "referral", minWager: number) => {
  const name = what === "welcome" ? "The welcome bonus's" : "The referral reward's"
  if (!Number.isInteger(terms.percent) || terms.percent < 1 || terms.percent > MAX_PERCENT[what]) return `${name} percent is a whole number from 1 to ${MAX_PERCENT[what]}.`
  if (!(terms.cap > 0) || terms.cap > MAX_CAP || toPaise(terms.cap) === undefined) return `${name} cap is more than ₹0 and at most ${formatRupees(MAX_CAP)}, in rupees and paise.`
  if (!Number.isInteger(terms.wagerTimes) || terms.wagerTimes < minWager || terms.wagerTimes > MAX_WAGER_TIMES) return `${name} wagering is a whole number of times from ${minWager} to ${MAX_WAGER_TIMES}.`
  return undefined
}

/** What is wrong with the rules, or undefined. A welcome bonus may ask no wagering; a referral waits for some play. */
export const bonusRulesProblem = (rules: BonusRules) => {
  const code = rules.welcome.code.trim()
  if (code === "" || code.length > MAX_CODE || !CODE.test(code)) return `The welcome bonus's code is 1 to ${MAX_CODE} capital letters, digits, - or _.`
  const title = rules.welcome.title.trim()
  if (title === "" || title.length > MAX_BONUS_TITLE) return `The welcome bonus's title is 1 to ${MAX_BONUS_TITLE} characters.`
  return termsProblem(rules.welcome, "welcome", 0) ?? termsProblem(rules.referral, "referral", 1)
}

/** The rules as stored: code and title trimmed. */
export const bonusRulesOf = (rules: BonusRules): BonusRules => ({
  welcome: { ...rules.welcome, code: rules.welcome.code.trim(), title: rules.welcome.title.trim() },
  referral: rules.referral
})

/**
 * The desk's form: its fields (`welcomePercent`, `referralCap`…, as typed)
 * over the rules the server has. An empty number field is not a number.
 */
export const bonusRulesFromFields = (fields: Readonly<Record<string, string>>, current: BonusRules): BonusRules => {
  const number = (name: string, now: number) => (fields[name] === undefined ? now : fields[name].trim() === "" ? Number.NaN : Number(fields[name]))
  const terms = (prefix: "welcome" | "referral", now: BonusTerms) => ({
    percent: number(`${prefix}Percent`, now.percent),
    cap: number(`${prefix}Cap`, now.cap),
    wagerTimes: number(`${prefix}WagerTimes`, now.wagerTimes)
  })
  return {
    welcome: { code: fields.welcomeCode ?? current.welcome.code, title: fields.welcomeTitle ?? current.welcome.title, ...terms("welcome", current.welcome) },
    referral: terms("referral", current.referral)
  }
}

const times = (n: number) => (n === 1 ? "once" : n === 2 ? "twice" : `${n} times`)

/** The bonus page with no bonus yet. */
export const welcomeTermsText = (terms: BonusTerms) =>
  `No bonus yet. Your first approved deposit brings a ${terms.percent}% welcome bonus, up to ${formatRupees(terms.cap)}` +
  (terms.wagerTimes === 0 ? ", yours to claim at once." : `, to wager ${times(terms.wagerTimes)} before you claim it.`)

/** The referral rule as the referrer reads it on /referral-bonus. */
export const referralRuleText = (terms: BonusTerms) =>
  `Friends who sign up with it earn you ${terms.percent}% of their first approved deposit (up to ${formatRupees(terms.cap)}), in your referral bonus, ` +
  `once they have wagered that deposit${terms.wagerTimes === 1 ? "" : ` ${times(terms.wagerTimes)}`} on settled markets. ` +
  "Friends who share a payout account, a device or an address with you earn nothing."
