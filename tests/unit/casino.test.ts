import { describe, expect, it } from "vitest"
import {
  ALL_CATEGORY,
  categoryOf,
  categoryStrip,
  gameImagePath,
  inCategory,
  isDay,
  launchIdOf,
  LIVE_CATEGORIES,
  OTHER
} from "../../src/domain/casino.ts"
import { indiaDay } from "../../src/domain/ranges.ts"
import { artworkSvg } from "../../server/casino/artwork.ts"
import { CATALOGUE } from "../../server/casino/catalogue.ts"

describe("casino categories", () => {
  it("are exactly SPEC section 9's for Ezugi and Evolution", () => {
    expect(LIVE_CATEGORIES.ezugi).toEqual(["Card Games", "Roulette", "Baccarat", "Blackjack", "Dragon Tiger", "Dice Games", "Indian Games", "Game Shows", "Other"])
    expect(LIVE_CATEGORIES.evolution).toEqual(["Baccarat", "Blackjack", "Roulette", "Dice Games", "Card Games", "Game Shows", "Poker", "Dragon Tiger"])
  })

  it("keep a provider's own category, whatever its case, and put the rest under Other", () => {
    expect(categoryOf("evolution", "live", "poker")).toBe("Poker")
    expect(categoryOf("ezugi", "live", "Poker")).toBe(OTHER)
    expect(categoryOf("evolution", "live", "Lottery")).toBe(OTHER)
    expect(categoryOf("someone-new", "live", "Roulette")).toBe(OTHER)
    expect(categoryOf("evolution", "slot", " megaways ")).toBe("Megaways")
    expect(categoryOf("evolution", "slot", "Roulette")).toBe(OTHER)
  })

  it("make a strip of All Category and the categories present, in display order with Other last", () => {
    const games = [{ game_category: "Other" }, { game_category: "Roulette" }, { game_category: "Indian Games" }, { game_category: "Roulette" }]
    expect(categoryStrip(games)).toEqual([ALL_CATEGORY, "Indian Games", "Roulette", "Other"])
    expect(categoryStrip([])).toEqual([ALL_CATEGORY])
    expect(inCategory(games, ALL_CATEGORY)).toHaveLength(4)
    expect(inCategory(games, "Roulette")).toHaveLength(2)
  })
})

describe("launch and artwork", () => {
  const game = { table_id: "LightningTable01", game_id: "evo-lightning-roulette" }

  it("launches live tables by table_id, slots and SA Gaming by game_id", () => {
    expect(launchIdOf("live", game)).toBe("LightningTable01")
    expect(launchIdOf("live", { table_id: "", game_id: "x" })).toBe("x")
    expect(launchIdOf("slots", game)).toBe("evo-lightning-roulette")
    expect(launchIdOf("sa", game)).toBe("evo-lightning-roulette")
  })

  it("names artwork /images/{provider}/{category}/{game}.png with slugs", () => {
    expect(gameImagePath("evolution", "Dice Games", "lightning-dice")).toBe("/images/evolution/dice-games/lightning-dice.png")
  })
})

describe("casino bet days", () => {
  it("accept only real calendar days", () => {
    expect(isDay("2026-02-28")).toBe(true)
    expect(isDay("2024-02-29")).toBe(true)
    for (const bad of ["2026-02-29", "2026-13-01", "26-01-01", "2026-1-1", "", "2026-01-01T00:00"]) expect(isDay(bad)).toBe(false)
  })

  it("count days in India (UTC+05:30)", () => {
    expect(indiaDay(new Date("2026-03-01T18:29:59Z"))).toBe("2026-03-01")
    expect(indiaDay(new Date("2026-03-01T18:30:00Z"))).toBe("2026-03-02")
  })
})

describe("slot artwork", () => {
  // The art without the title written on it: what tells one slot's card from another's at a glance.
  const picture = (svg: string) => svg.replace(/<text x="16"[^>]*>[^<]*<\/text>/g, "")
  const slots = CATALOGUE.filter((group) => group.kind === "slot").flatMap((group) => group.entries)

  it("differs from game to game, within a category too, and stays the same for a game", () => {
    const pictures = slots.map((entry) => picture(artworkSvg({ title: entry.title, category: entry.category, kind: "slot" })))
    expect(slots.length).toBeGreaterThan(5)
    expect(new Set(pictures).size).toBe(slots.length)
    expect(picture(artworkSvg({ title: "Starburst", category: "Video Slots", kind: "slot" }))).toBe(pictures[slots.findIndex((e) => e.title === "Starburst")])
  })
})
