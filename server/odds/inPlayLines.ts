/**
 * Fancy lines that open as the match moves, in the innings being played:
 * the fall of the next wicket once the one before it has fallen, the runs
 * of the next over once the one before it is bowled (so before its first
 * ball), and the runs of each batter who comes in. An event offers a side's
 * chain when its catalogue has the chain's first line ("Fall of 1st Wkt MI",
 * "Only 1st Over Runs MI"; the openers' "Batter 1 Runs MI" and 2); the lines
 * after it are opened by play (so never copied to the next fixture), each
 * priced by the event's model like any other line from the moment it is
 * loaded. The side batting second has its first lines in the catalogue too
 * (suspended until its innings begins, prices.ts): what the event offers is
 * then the catalogue's alone, and nothing depends on a server having seen
 * the first innings (one restarted at the innings break goes on alike).
 */
import { Effect } from "effect"
import type { SqlError } from "effect/sql"
import { batterRunsName, fallOfWicketName, INNINGS_OVERS, overRunsName, runCountOf } from "../../src/domain/eventBook.ts"
import { battingSide, inningsOf, type MatchState } from "./simulation.ts"

/** Whether a market is opened by play rather than listed in the event's catalogue. */
export const opensInPlay = (name: string) => {
  const count = runCountOf(name)
  return (count.kind === "wicket" && count.wicket > 1) || (count.kind === "over" && count.over > 1) || (count.kind === "batter" && count.batter > 2)
}

/** A line to open: its name, and the line it follows in the event's list (it takes that one's place). */
export interface Line {
  readonly name: string
  readonly follows: string
}

/**
 * The lines the match has come to that `names` (every market the event has
 * had) lack: for the side batting, while its innings goes on, the next
 * wicket's fall, the over being bowled (or about to be) and the two batters
 * at the crease.
 */
export const linesToOpen = (names: ReadonlySet<string>, match: MatchState): ReadonlyArray<Line> => {
  const side = battingSide(match)
  const innings = side === undefined ? undefined : inningsOf(match, side)
  if (side === undefined || !innings || innings.complete) return []
  const next = {
    wicket: [fallOfWicketName(innings.wicketsAt.length + 1, side)],
    over: [overRunsName(Math.min(INNINGS_OVERS, Math.floor(innings.balls / 6) + 1), side)],
    batter: innings.crease.map((batter) => batterRunsName(batter, side))
  }
  return (["wicket", "over", "batter"] as const).flatMap((kind) => {
    // The chain is offered if any of its lines was seen (its first may be settled already, before a restart).
    const follows = [...names].find((name) => {
      const count = runCountOf(name)
      return count.kind === kind && count.side === side
    })
    return follows === undefined ? [] : next[kind].filter((name) => !names.has(name)).map((name) => ({ name, follows }))
  })
}

/** What opening a line needs of the database: the market written once, whoever asks (false if it was there). */
export type AddLine = (eventId: string, name: string, sort: number, now: number) => Effect.Effect<boolean, SqlError.SqlError>

/**
 * Opens each line the match comes to, once: it remembers every market name
 * (and place) it saw per event, and what it asked for.
 */
export const makeLineOpener = (addLine: AddLine) => {
  const seen = new Map<string, Map<string, number>>()
  return {
    /** A market of the event as loaded. */
    saw: (eventId: string, name: string, sort: number) => {
      let names = seen.get(eventId)
      if (!names) seen.set(eventId, (names = new Map()))
      names.set(name, sort)
    },
    /** The event is over (or gone): nothing more to open. */
    forget: (eventId: string) => void seen.delete(eventId),
    /** Opens the lines each event's match (by event id) has come to; the events that had one written. */
    open: (matches: Iterable<readonly [string, MatchState | undefined]>, now: number) =>
      Effect.gen(function*() {
        const opened = new Set<string>()
        for (const [eventId, match] of matches) {
          const names = seen.get(eventId)
          if (!names || !match) continue
          for (const line of linesToOpen(new Set(names.keys()), match)) {
            const sort = names.get(line.follows) ?? 0
            if (yield* addLine(eventId, line.name, sort, now)) opened.add(eventId)
            // Asked once: written now, or already there (another server, a restart).
            names.set(line.name, sort)
          }
        }
        return [...opened]
      })
  }
}
