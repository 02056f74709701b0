import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { eventHref, searchCatalogue, sidebarSports, sportEventCount } from "../../src/domain/catalogue.ts"
import { eventDateLabel } from "../../src/domain/dates.ts"
import { addRupees, chipLabel, DEFAULT_CHIPS, fixed2, formatAmount, formatRupees, formatSigned, toPaise, toRupees, wholeAmount } from "../../src/domain/money.ts"
import { matchesSearch, normalizeSearch } from "../../src/domain/search.ts"
import { countBadge, slugify, sortSports } from "../../src/domain/sports.ts"
import { cleanName } from "../../src/domain/text.ts"
import type { Sport } from "../../src/schema/sports.ts"

describe("money", () => {
  it("converts rupees with at most two decimals to whole paise, and refuses the rest", () => {
    expect(toPaise(100)).toBe(10_000)
    expect(toPaise(0.1)).toBe(10)
    expect(toPaise(1234.56)).toBe(123_456)
    expect(toPaise(0.005)).toBeUndefined()
    expect(toPaise(Number.NaN)).toBeUndefined()
    expect(toPaise(Number.POSITIVE_INFINITY)).toBeUndefined()
  })

  it("round-trips every paise amount exactly", () => {
    fc.assert(fc.property(fc.integer({ min: -1e12, max: 1e12 }), (paise) => toPaise(toRupees(paise)) === paise))
  })

  it("adds without floating-point drift", () => {
    expect(addRupees(0.1, 0.2)).toBe(0.3)
    fc.assert(fc.property(fc.array(fc.integer({ min: -1e9, max: 1e9 }), { maxLength: 50 }), (list) =>
      toPaise(addRupees(...list.map(toRupees))) === list.reduce((a, b) => a + b, 0)
    ))
  })

  it("shows two decimals, Indian grouping, and short chip labels from 10,000 up", () => {
    expect(formatAmount(123456.7)).toBe("1,23,456.70")
    expect(fixed2(2.005)).toBe("2.01")
    expect(fixed2(-3)).toBe("-3.00")
    expect(DEFAULT_CHIPS.map(chipLabel)).toEqual(["100", "1,000", "2,000", "5,000", "10k", "20k", "50k", "100k"])
  })

  it("formats every amount of money one way: grouped, two decimals, the sign before the rupee", () => {
    expect(formatRupees(504000)).toBe("₹5,04,000.00")
    expect(formatRupees(-600000)).toBe("−₹6,00,000.00")
    expect(formatRupees(0.5)).toBe("₹0.50")
    expect(formatSigned(1234.5)).toBe("+1,234.50")
    expect(formatSigned(-12)).toBe("−12.00")
    // Nothing rounds to a negative zero.
    expect(formatAmount(-0)).toBe("0.00")
    expect(formatAmount(-0.004)).toBe("0.00")
    expect(formatRupees(-0.004)).toBe("₹0.00")
    expect(formatSigned(-0.004)).toBe("0.00")
    expect(wholeAmount(10000)).toBe("10,000")
    fc.assert(fc.property(fc.integer({ min: -1e12, max: 1e12 }), (paise) => {
      const text = formatAmount(toRupees(paise))
      // Two decimals, digits grouped as 12,34,56,789 (three at the end, then twos), and the value read back is the value.
      return /^-?\d{1,2}(,\d{2})*(,\d{3})?\.\d{2}$|^-?\d{1,3}\.\d{2}$/.test(text) && toPaise(Number(text.replace(/,/g, ""))) === (paise === 0 ? 0 : paise)
    }))
  })
})

describe("event dates", () => {
  const now = new Date(2026, 10, 22, 12, 0)
  it("says Today, Tomorrow or dd MMM, with HH:mm", () => {
    expect(eventDateLabel(new Date(2026, 10, 22, 19, 30), now)).toBe("Today, 19:30")
    expect(eventDateLabel(new Date(2026, 10, 23, 9, 5), now)).toBe("Tomorrow, 09:05")
    expect(eventDateLabel(new Date(2026, 10, 25, 14, 0), now)).toBe("25 Nov, 14:00")
    expect(eventDateLabel(new Date(2026, 11, 31, 23, 59), new Date(2026, 11, 30, 8, 0))).toBe("Tomorrow, 23:59")
  })
})

describe("search", () => {
  it("ignores spaces and case", () => {
    expect(normalizeSearch(" India  Vs AUS ")).toBe("indiavsaus")
    expect(matchesSearch("indiaV", "India v Australia")).toBe(true)
    expect(matchesSearch("MUMBAI indians", "mumbai-indians-v-chennai", "Mumbai Indians v Chennai Super Kings")).toBe(true)
    expect(matchesSearch("chelsea", "Arsenal v Liverpool")).toBe(false)
    expect(matchesSearch("   ", "anything")).toBe(true)
  })
})

const event = (name: string, inPlay = false) => ({
  _id: name, id: name, name, slugName: slugify(name), date: "2026-11-22T10:00:00.000Z", sportCode: "4", inPlay, markets: []
})
const sport = (name: string, leagues: Array<[string, Array<string>]>): Sport => ({
  _id: name,
  name,
  slugName: slugify(name),
  sportsCode: name,
  leagues: leagues.map(([league, events]) => ({ _id: league, name: league, slugName: slugify(league), events: events.map((e) => event(e)) }))
})

describe("sports", () => {
  it("puts Cricket, Football and Tennis first, then the rest by name", () => {
    const sorted = sortSports(["Basketball", "Tennis", "Kabaddi", "Cricket", "Football", "Badminton"].map((n) => sport(n, [])))
    expect(sorted.map((s) => s.name)).toEqual(["Cricket", "Football", "Tennis", "Badminton", "Basketball", "Kabaddi"])
  })

  it("caps count badges at 99+", () => {
    expect(countBadge(0)).toBe("0")
    expect(countBadge(99)).toBe("99")
    expect(countBadge(100)).toBe("99+")
  })

  it("slugs names for URLs", () => {
    expect(slugify("Royal Challengers Bengaluru v Kolkata Knight Riders")).toBe("royal-challengers-bengaluru-v-kolkata-knight-riders")
    expect(slugify("  Atlético Madrid!! ")).toBe("atletico-madrid")
  })
})

describe("catalogue", () => {
  const catalogue = [
    sport("Cricket", [["Indian Premier League", ["Mumbai Indians v Chennai Super Kings", "Delhi Capitals v Rajasthan Royals"]], ["Big Bash League", ["Sydney Sixers v Perth Scorchers"]]]),
    sport("Football", [["English Premier League", ["Arsenal v Chelsea"]]]),
    sport("Horse Racing", [["Ascot", ["Ascot R1"]]])
  ]

  it("hides racing from the sidebar and counts events", () => {
    expect(sidebarSports(catalogue).map((s) => s.name)).toEqual(["Cricket", "Football"])
    expect(sportEventCount(catalogue[0]!)).toBe(3)
  })

  it("keeps a matching sport or league whole, and otherwise only matching events", () => {
    expect(searchCatalogue(catalogue, "football")[0]!.leagues[0]!.events).toHaveLength(1)
    const byLeague = searchCatalogue(catalogue, "bigbash")
    expect(byLeague.map((s) => s.name)).toEqual(["Cricket"])
    expect(byLeague[0]!.leagues.map((l) => l.name)).toEqual(["Big Bash League"])
    const byEvent = searchCatalogue(catalogue, "delhi capitals")
    expect(byEvent[0]!.leagues[0]!.events.map((e) => e.name)).toEqual(["Delhi Capitals v Rajasthan Royals"])
    expect(searchCatalogue(catalogue, "no such thing")).toEqual([])
  })

  it("links events by their slugs", () => {
    const [cricket] = catalogue
    expect(eventHref(cricket!, cricket!.leagues[0]!, cricket!.leagues[0]!.events[0]!)).toBe(
      "/event?sport=cricket&league=indian-premier-league&event=mumbai-indians-v-chennai-super-kings"
    )
  })
})

describe("names", () => {
  it("keeps a name as it reads: compatibility form, no format or control characters, spaces collapsed", () => {
    expect(cleanName("Ram\u200BKumar")).toBe("RamKumar")
    expect(cleanName("Ra\u00ADm  \u200D Kumar\u200C")).toBe("Ram Kumar")
    expect(cleanName("Ravi\u202Etnuocca\u2066 Kumar\u2069")).toBe("Ravitnuocca Kumar")
    expect(cleanName("Ｒａｍ\u3000𝐊𝐮𝐦𝐚𝐫")).toBe("Ram Kumar")
    expect(cleanName("\uFEFFSita\tDevi\n")).toBe("Sita Devi")
    expect(cleanName("सीता देवी")).toBe("सीता देवी")
    fc.assert(fc.property(fc.string({ unit: "grapheme" }), (name) => {
      const clean = cleanName(name)
      expect(clean).not.toMatch(/[\p{Cf}\p{Cc}]/u)
      expect(cleanName(clean)).toBe(clean)
    }))
  })
})
